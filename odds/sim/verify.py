"""Judge a simulator's output against the rules and the exact odds.

:func:`verify_file` reads tallies or a round log (formats in
:mod:`odds.sim.tallies` and docs/simulate-and-verify.md), from our simulator or anyone's.
A round log is first *audited*: every row's draw and stand decisions, final
values, result and payout are recomputed from its cards with the reference
code (:mod:`odds.exact.engine`, :mod:`odds.rules.settle`), and the first violations are
reported with their line numbers.  Then the frequencies are tested against
the exact probabilities of :func:`odds.exact.engine.round_odds` for the same
profile and shoe: chi-square goodness of fit (outcome categories, two-card
and final values, payouts), z-scores (win, push, loss, naturals, Colon,
draws), and the expected value with a confidence interval.  P-values are
computed with mpmath, so a tiny one is printed as what it is, not as 0.

Every seat is tested on its own (seats share the bank's hand, so pooled
seats are not independent rounds); the verdict combines all tests with a
Bonferroni bound: ``p = min(1, tests * smallest p)``.

This module imports numpy and mpmath; the ``odds`` package does not import it.
"""

from __future__ import annotations

import csv
import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

from odds.io.dask_cluster import DaskSession, check_address, check_timeout
from odds.io.textio import read_line_blocks, read_text, strip_bom
from odds.sim.log_judge import (
    log_header,
    log_kind,
    read_opening,
    verify_log,
)
from odds.sim.parallel import (
    MAX_JOBS,
    DaskWorkers,
    ProcessWorkers,
    Progress,
    Unsplittable,
    verify_parts,
    worker_identity,
)
from odds.sim.shoe_check import OutOfOrder
from odds.sim.tallies import (
    LOG_COLUMNS,
    RunHeader,
    TallyError,
    read_tallies,
    split_comments,
)
from odds.sim.verdict import (
    BLOCK,
    MAX_FILE,
    RuleOverrides,
    StrategyFn,
    Verification,
    check_alpha,
    choice_reports,
    verify_tallies,
)

__all__ = ["verify_file", "verify_text"]


def verify_text(
    text: str,
    source: str = "input",
    rules: RunHeader | RuleOverrides | None = None,
    alpha: float = 0.01,
    seats: int | None = None,
    strategies: StrategyFn | None = None,
) -> Verification:
    """Verify the contents of a tallies file or round log.

    ``rules``: a :class:`RuleOverrides` replaces only the fields it names
    (the report says where each rule came from); a whole :class:`RunHeader`
    replaces the file's header.  Without either, the file's header, with
    defaults (the ``standard`` profile) for what it leaves out.
    ``seats`` is the table's number of seats (default: the header's, or
    for a log without one, the highest seat in it).  ``strategies``: for a
    profile where players and bank choose, a function giving the exact odds
    of the strategies played (the CLI builds it from ``odds.game``); without
    it only the audit runs (any legal choice passes).

    >>> log = "round,seat,player,bank,result,payout\\n1,1,8h 7s 4d,Ac 6d,win,1\\n"
    >>> verify_text(log).broken_rules
    []
    >>> print(verify_text(log.replace("win,1", "win,2")).violations[0].message)
    win_comparison with player 8h 7s 4d: the rules pay 1, the log pays 2
    >>> verify_text(log.replace("4d", "4d 4d")).violations[0].message
    "the player's hand has 4 cards; a hand has 2, or 3 after a draw"
    """
    check_alpha(alpha)
    text = strip_bom(text)
    lines = text.splitlines()
    kind = log_kind(lines)
    if kind is not None:
        return verify_log(iter([(1, lines)]), kind, source, rules, alpha, seats, strategies)
    if text.lstrip().startswith("{"):
        data, tallies = read_tallies(text, source)
        if data.get("format") not in (None, "lucky9-tallies/1"):
            raise TallyError(f"{source}: format {data.get('format')!r} is not lucky9-tallies/1")
    else:
        data, rest, skipped = split_comments(text, source)
        first = next((ln for ln in rest if ln.strip()), "")
        if "quantity" not in [c.strip().lower() for c in first.split(",")]:
            raise TallyError(
                f"{source}, line {skipped + 1}: not a tallies file (seat,quantity,key,count) "
                f"or round log ({','.join(LOG_COLUMNS)}), nor JSON"
            )
        data, tallies = read_tallies(text, source)
    header, sources, header_from = log_header(data, source, rules, seats)
    seats = max((t.seat for t in tallies), default=1)
    if header.seats < seats or dict(sources).get("seats") == "default":
        header = RunHeader(header.profile, header.shoe, max(header.seats, seats),
                           header.reshuffle, header.penetration, header.seed)
        sources = tuple((r, "rows" if r == "seats" else k) for r, k in sources)
    if not header.profile.fixed:
        for t in tallies:
            t.check(header.profile, source)
        reports, choice_notes = choice_reports(header, tallies, alpha, strategies)
        return Verification(source, "tallies", header, header_from, 0, (), {}, reports,
                            alpha, 0, "strategies", choice_notes, sources)
    result = verify_tallies(header, tallies, alpha, source, header_from)
    return replace(result, sources=sources)


def verify_file(path: str | Path, rules: RunHeader | RuleOverrides | None = None,
                alpha: float = 0.01, seats: int | None = None,
                strategies: StrategyFn | None = None, jobs: int = 1, cluster: Any = None,
                cluster_timeout: float = 10.0, progress: Progress | None = None,
                partial_on_stop: bool = False) -> Verification:
    """Verify a tallies file or round log (see :func:`verify_text`).

    ``jobs`` processes, or a Dask ``cluster`` (an address, ``tcp://host:port``
    or ``local:N``, reached within ``cluster_timeout`` seconds; or an open
    :class:`odds.io.dask_cluster.DaskSession`), judge a round log in parts
    (:mod:`odds.sim.parallel`): the result is the one of one process.
    ``progress(bytes done, bytes in all, rows done)`` is called as parts end
    (and twice a second); a stop it raises (KeyboardInterrupt, SystemExit)
    ends the workers and, with ``partial_on_stop``, the parts done are
    reported with a note that says so.

    >>> verify_file("no-such-file.csv")
    Traceback (most recent call last):
    ...
    odds.sim.tallies.TallyError: file 'no-such-file.csv' does not exist
    """
    check_alpha(alpha)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise TallyError(f"jobs is a whole number from 1 to {MAX_JOBS}, not {jobs!r}")
    if cluster is not None and jobs != 1:
        raise TallyError("give jobs or a cluster, not both (the cluster's workers are the jobs)")
    if isinstance(cluster, str):
        check_address(cluster)
        check_timeout(cluster_timeout)
    p = Path(path)
    try:
        blocks = read_line_blocks(p, "file", TallyError, str(p), BLOCK)
        number, lines = next(blocks, (1, []))
        number, lines, within = read_opening(blocks, number, list(lines))
        kind = log_kind(lines) if within else None
        if kind is not None and (jobs > 1 or cluster is not None):
            blocks.close()
            try:
                return _in_parts(str(p), kind, rules, alpha, seats, strategies, jobs, cluster,
                                 cluster_timeout, progress, partial_on_stop)
            except Unsplittable:
                blocks = read_line_blocks(p, "file", TallyError, str(p), BLOCK)
                number, lines = next(blocks, (1, []))
                number, lines, within = read_opening(blocks, number, list(lines))
        if kind is not None:  # a round log: block by block, in bounded memory
            try:
                return verify_log(itertools.chain([(number, lines)], blocks), kind, str(p),
                                   rules, alpha, seats, strategies, streaming=True)
            except OutOfOrder:
                pass  # not in round order: read whole, below
        blocks.close()
        text = read_text(p, MAX_FILE, "file", TallyError)
        return verify_text(text, str(p), rules, alpha, seats, strategies)
    except csv.Error as exc:  # a quoted field past the csv module's limit, say
        raise TallyError(f"{p}: not valid CSV ({exc})") from None


def _in_parts(path: str, kind: str, rules: RunHeader | RuleOverrides | None, alpha: float,
              seats: int | None, strategies: StrategyFn | None, jobs: int, cluster: Any,
              cluster_timeout: float, progress: Progress | None,
              partial_on_stop: bool) -> Verification:
    """A round log judged in parts by ``jobs`` processes or on a cluster."""
    session = None
    workers: ProcessWorkers | DaskWorkers
    if cluster is None:
        workers, slots = ProcessWorkers(jobs), jobs
    else:
        if isinstance(cluster, str):
            session = cluster = DaskSession.connect(cluster, cluster_timeout, worker_identity,
                                                    "the verification")
        workers = DaskWorkers(cluster)
        slots = max(1, sum(cluster.client.nthreads().values()))
    try:
        return verify_parts(path, kind, path, rules, alpha, seats, strategies, workers, slots,
                            progress, partial_on_stop)
    finally:
        workers.close()
        if session is not None:
            session.close()
