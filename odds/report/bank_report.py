"""Rendering the bank's figures: JSON-ready data, CSV rows, terminal text, a plot.

Exact figures are fraction strings in JSON and CSV; estimates are objects
with the frequency and a 95% interval, and every output says which it is.
Every session figure is printed with the session options that produced it.
matplotlib is optional (``pip install matplotlib``, or ``pip install -e '.[plot]'`` in a
checkout), imported only
by :func:`write_plot`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.io.atomic import AtomicFile, check_target
from odds.io.textio import excerpt
from odds.money.bank import BankRound
from odds.money.rotation import PersonFigures
from odds.money.ruin import SessionRisk
from odds.money.session import BankStudy, bank_table_rows, ruin_curve
from odds.money.target import CapitalTarget
from odds.rules.house_cut import share_text
from odds.rules.profile import Profile
from odds.rules.rule_types import Rotation
from odds.rules.session_options import Session
from odds.rules.shoe import Shoe
from odds.rules.text import (
    bonus_limit_data,
    bonus_limit_note,
    decimal,
    fraction,
    rules_line,
    text_table,
    wrap_rules,
)

__all__ = ["PlotUnavailable", "bank_data", "bank_rows", "bank_section_parts", "bank_table_text",
           "bank_text", "check_plot_path", "check_plot_ready", "max_bonus_notes", "money_axis",
           "plot_figure", "session_line", "write_plot"]



class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def _amount(value: Fraction | None) -> str:
    if value is None:
        return "none"
    return fraction(value)


def session_line(session: Session) -> str:
    """The session options in one line, for every header.

    >>> session_line(Session(players=2))
    'stakes 1 each; max_stake none; bonus_cap none; round_cap none; cap_rule seat-order; rotation fixed'
    """
    stakes = session.stakes
    if stakes is None or len(set(stakes)) == 1:
        what = f"stakes {_amount(stakes[0] if stakes else Fraction(1))} each"
    else:
        what = "stakes " + ",".join(_amount(s) for s in stakes)
    parts = [what, f"max_stake {_amount(session.max_stake)}",
             f"bonus_cap {'none' if session.bonus_cap is None else session.bonus_cap}",
             f"round_cap {_amount(session.round_cap)}", f"cap_rule {session.cap_rule.value}"]
    if session.max_bonus is not None:
        parts.append(f"max_bonus {_amount(session.max_bonus)}")
    if session.capital is not None:
        parts.append(f"capital {_amount(session.capital)}")
    if session.rounds is not None:
        parts.append(f"rounds {session.rounds}")
    parts.append(f"rotation {session.rotation.value}")
    if session.fee:
        parts.append(f"fee {_amount(session.fee)}")
    if session.commission:
        parts.append(f"commission {share_text(session.commission)}")
    return "; ".join(parts)


def max_bonus_notes(r: BankRound) -> list[str]:
    """What ``max_bonus`` does at each stake of the table: which seats it caps, or that it
    never binds (none without it).

    >>> from odds import BUILTIN, Shoe, bank_round
    >>> r = bank_round(BUILTIN["standard"], Shoe.infinite_shoe(),
    ...                Session(stakes=(Fraction(1), Fraction(2)), max_bonus=Fraction(4)))
    >>> for line in max_bonus_notes(r): print(line)
    seat 1: max_bonus 4 never binds at stake 1: the largest bonus, Colon nine 3:1, pays 3 at this stake
    seat 2: max_bonus 4 at stake 2: a bonus pays at most 4, 2 per unit staked (Colon nine 3:1 capped)
    """
    if r.session.max_bonus is None:
        return []
    seats: dict[Fraction, list[int]] = {}
    for i, s in enumerate(r.stakes, 1):
        seats.setdefault(s, []).append(i)
    return [f"seat{'s' if len(who) > 1 else ''} {','.join(map(str, who))}: "
            f"{bonus_limit_note(r.profile.at_stake(s, r.session.max_bonus))}"
            for s, who in seats.items()]


def _prob(r: BankRound, p: Fraction) -> Any:
    if r.exact:
        return fraction(p)
    lo, hi = r.interval(p) or (0.0, 1.0)
    return {"estimate": float(p), "frequency": fraction(p), "interval": [lo, hi]}


def _value(r: BankRound, x: Fraction, interval: tuple[float, float] | None = None) -> Any:
    if r.exact:
        return fraction(x)
    return {"estimate": float(x), "interval": list(interval) if interval else None}


def _chain(p: Fraction | float) -> Any:
    return fraction(p) if isinstance(p, Fraction) else p


def _persons(people: Sequence[PersonFigures] | None) -> Any:
    if people is None:
        return None
    return [{"person": p.person, "bank_rounds": p.bank_rounds, "mean": fraction(p.mean),
             "variance": fraction(p.variance), "sd": p.sd} for p in people]


def bank_data(study: BankStudy) -> dict[str, Any]:
    """Everything ``lucky9 bank --format json`` prints.

    >>> from odds import BUILTIN, Shoe, bank_study
    >>> d = bank_data(bank_study(BUILTIN["plain"], Shoe.infinite_shoe(), Session(players=1)))
    >>> d["players"], d["exact"], d["mean"], d["net_distribution"]["-1"]
    (1, True, '0', '2186424/4826809')
    """
    r = study.round
    data: dict[str, Any] = {
        "profile": r.profile.key,
        "rules": rules_line(r.profile),
        "shoe": r.shoe.label,
        "players": r.players,
        "stakes": [fraction(s) for s in r.stakes],
        "session": r.session.as_data(),
        "exact": r.exact,
        "method": r.method,
        "samples": r.samples,
        "seed": r.seed,
        "net_distribution": {fraction(v): _prob(r, p) for v, p in r.distribution.items()},
        "moments_exact": r.moments_exact,
        "mean_exact": r.mean_exact,
        "mean": fraction(r.mean) if r.mean_exact else _value(r, r.mean, r.mean_interval()),
        "mean_without_table_caps": (None if r.uncapped_mean is None
                                    else fraction(r.uncapped_mean)),
        "variance": fraction(r.variance) if r.moments_exact else _value(r, r.variance),
        "sd": r.sd,
        "worst": fraction(r.worst),
        "best": fraction(r.best),
        "p_loss_more_than": {"x": fraction(study.loss_over),
                             "probability": _prob(r, r.p_loss_more_than(study.loss_over))},
        "seats": [
            {"seat": i, "stake": fraction(s),
             "mean": (fraction(r.seat_moments(i)[0]) if r.seats_exact
                      else _value(r, r.seat_moments(i)[0])),
             "variance": (fraction(r.seat_moments(i)[1]) if r.seats_exact
                          else _value(r, r.seat_moments(i)[1])),
             **({} if r.session.max_bonus is None else
                {"max_bonus": bonus_limit_data(r.profile.at_stake(s, r.session.max_bonus))})}
            for i, s in enumerate(r.stakes, 1)
        ],
    }
    risk = study.risk
    if risk is not None:
        data["ruin_probability"] = _chain(risk.ruin)
        data["session_risk"] = {
            "capital": fraction(risk.capital), "rounds": risk.rounds,
            "exact": risk.exact and r.exact, "chain": "exact rationals" if risk.exact
            else "floating point", "error_bound": risk.error_bound,
            "ruin_by_round": [_chain(p) for p in risk.ruin_by_round],
            "result_distribution": {fraction(v): _chain(p) for v, p in risk.result.items()},
            "bracket": _bracket_data(risk),
        }
        if risk.estimate is not None:
            e = risk.estimate
            data["session_risk"]["ruin_estimate"] = {
                "estimate": e.value, "interval": list(e.interval), "level": 0.95,
                "samples": e.samples, "seed": e.seed,
                "interval_without_control_variate": list(e.plain),
                "control_variate": "the exact mean" if e.narrowed else None,
                "interval_narrowed_by": e.narrowed}
            data["ruin_probability"] = e.value
            ests = risk.estimates
            assert ests is not None
            a = ests.ahead
            data["session_risk"]["ahead_estimate"] = {
                "estimate": a.value, "interval": list(a.interval), "level": 0.95}
            m = ests.mean_result
            if m is not None:
                data["session_risk"]["expected_result_estimate"] = {
                    "estimate": m.value, "interval": list(m.interval), "level": 0.95,
                    "samples": m.samples, "seed": m.seed}
            data["session_risk"]["quantiles"] = {
                str(q): {"estimate": fraction(risk.quantile(q)),
                         "interval": [fraction(v) for v in (risk.quantile_interval(q) or (x, x))],
                         "level": 0.95}
                for q, (x, _) in ests.quantiles.items()}
    if study.target is not None:
        t = study.target
        data["capital_for_target"] = {
            "target_ruin": fraction(t.target), "rounds": t.rounds, "capital": fraction(t.capital),
            "ruin": _chain(t.ruin), "exact": t.exact and r.exact, "error_bound": t.error_bound,
            "interval": None if t.interval is None else [fraction(c) for c in t.interval],
            "level": None if t.interval is None else 0.95, "samples": t.samples, "seed": t.seed,
            "bracket": None if t.bracket is None else {
                "capitals": [fraction(c) for c in t.bracket], "lattice_step": fraction(t.unit)
                if t.unit is not None else None,
                "ruin_lower": None if t.ruin_lower is None else _chain(t.ruin_lower)}}
        if study.risk is not None:
            data["largest_stake_factor"] = (None if study.stake_factor is None
                                            else fraction(study.stake_factor))
            if study.stake_factors is not None:
                data["largest_stake_factor_bracket"] = [
                    None if f is None else fraction(f) for f in study.stake_factors]
    if study.rotation is not None:
        data["rotation"] = {"mode": r.session.rotation.value,
                            "persons": _persons(study.rotation),
                            "other_mode": _persons(study.other_rotation)}
    return data


def _bracket_data(risk: SessionRisk) -> dict[str, Any] | None:
    """The ruin's bracket on a coarse lattice: both bounds, the step, and on a sampled round
    the 95% interval widened by the bracket."""
    if risk.bracket is None or risk.unit is None:
        return None
    lower, upper = risk.bracket
    out: dict[str, Any] = {"lower": _chain(lower), "upper": _chain(upper),
                           "lattice_step": fraction(risk.unit)}
    both = risk.interval_bracket
    if both is not None:
        out["interval"] = list(both)
        out["level"] = 0.95
    return out


def _dec(x: Fraction | float, digits: int = 6) -> str:
    return decimal(Fraction(x) if isinstance(x, Fraction) else Fraction(str(x)), digits)


def _p(x: Fraction | float) -> str:
    """A probability: 6 places, or 3 significant digits below 5e-7."""
    return _dec(x) if x == 0 or x >= Fraction(5, 10**7) else f"{float(x):.2e}"


def _signed(x: Fraction) -> str:
    text = fraction(x)
    return text if x <= 0 else "+" + text


def bank_text(study: BankStudy) -> list[str]:
    """The terminal report of ``lucky9 bank``.

    >>> from odds import BUILTIN, Shoe, bank_study
    >>> bank_text(bank_study(BUILTIN["plain"], Shoe.infinite_shoe(), Session(players=2)))[5]
    "exact: seats independent given the bank's hand (infinite shoe)"
    """
    r = study.round
    label = "exact" if r.exact else "ESTIMATE"
    lines = [
        f"profile {r.profile.key}: {r.profile.title}",
        *wrap_rules(f"rules: {rules_line(r.profile)}"),
        f"shoe: {r.shoe.label}; {r.players} player{'s' if r.players > 1 else ''}",
        f"session: {session_line(r.session)}",
        *[line for note in max_bonus_notes(r) for line in wrap_rules(f"note: {note}")],
        f"{label}: {r.method}",
        "amounts in the stakes' units; bank's side: + the bank wins; "
        "decimals rounded half-even",
        "",
        "bank's net per round",
    ]
    mi = r.mean_interval()
    mean = f"{_dec(r.mean):>12}" + (f"  95% interval [{mi[0]:+.4f}, {mi[1]:+.4f}]" if mi else
                                     "  exact" if not r.exact else "")
    lines += [
        f"  mean               {mean}",
        *([] if r.uncapped_mean is None else [
            f"  without table caps {_dec(r.uncapped_mean):>12}  exact (bonus_cap and round_cap "
            "only lower what the bank pays)"]),
        f"  standard deviation {r.sd:>12.6f}" + ("  exact" if r.moments_exact and not r.exact
                                                  else ""),
        f"  {'worst case' if r.exact else 'worst seen':<18} {_signed(r.worst):>12}   "
        f"{'probability' if r.exact else 'frequency'} {_p(r.distribution[r.worst])}",
        f"  {'best case' if r.exact else 'best seen':<18} {_signed(r.best):>12}",
        f"  {'P(loss > ' + fraction(study.loss_over) + ')':<18} "
        f"{_dec(r.p_loss_more_than(study.loss_over)):>12}",
        "",
    ]
    table: list[list[str]] = [["net", "probability"] + ([] if r.exact else ["95% interval"])]
    for v, p in sorted(r.distribution.items(), reverse=True):
        iv = r.interval(p)
        table.append([_signed(v), _p(p)] + ([f"[{iv[0]:.6f}, {iv[1]:.6f}]"] if iv else []))
    lines += text_table(table, ["  >6", " >12", "  <0"])
    lines += ["", "each seat's net per round (the player's side)",
              *text_table([["seat", "stake", "mean", "sd"]] + [
                  [str(i), fraction(s), _dec(r.seat_moments(i)[0]),
                   f"{float(r.seat_moments(i)[1]) ** 0.5:.4f}"]
                  for i, s in enumerate(r.stakes, 1)], ["  <5", ">6", ">12", ">10"])]
    risk = study.risk
    if risk is not None:
        how = ("exact rationals" if risk.exact
               else f"floating point, error below {risk.error_bound:.1e}")
        if not r.exact:
            how += "; from the estimated round, so an ESTIMATE"
        ahead = sum(float(p) for v, p in risk.result.items() if v > 0)
        lines += ["", f"session of {risk.rounds} rounds from capital {fraction(risk.capital)} "
                      f"({how})"]
        e = risk.estimate
        if risk.bracket is not None:
            lines += _bracket_text(risk)
        elif e is None:
            lines.append(f"  P(ruin within {risk.rounds} rounds)  {_dec(risk.ruin, 8)}")
        else:
            lines.append(f"  P(ruin within {risk.rounds} rounds)  {e.value:.6f}  95% interval "
                         f"[{e.interval[0]:.6f}, {e.interval[1]:.6f}] ({e.samples:,} rounds "
                         f"sampled, seed {e.seed})")
            if e.narrowed:
                lines.append(f"    the exact mean as a control variate narrows the interval by "
                             f"{e.narrowed:.0%} (without it [{e.plain[0]:.6f}, {e.plain[1]:.6f}])")
        lines += [
                  _ahead_line(risk, ahead),
                  _mean_result_line(risk),
                  "  result: " + ", ".join(_quantile_text(risk, q, name) for q, name in
                                           ((0.05, "5%"), (0.5, "median"), (0.95, "95%")))
                  + " (a ruined bank counted at -capital)"]
    t = study.target
    if t is not None:
        how = "exact" if t.exact and r.exact else "floating point" if r.exact else "ESTIMATE"
        lines += ["", f"capital for ruin <= {_dec(t.target, 4)} within {t.rounds} rounds ({how})",
                  f"  smallest capital  {fraction(t.capital)} (ruin "
                  f"{_dec(t.ruin, 6) if t.bracket is None else 'at most ' + _dec(t.ruin, 6)})"
                  + _capital_interval_text(t)]
        if t.bracket is not None and t.unit is not None:
            lines.append(f"    on a lattice of {fraction(t.unit)} (nets rounded both ways): the "
                         f"smallest capital lies in [{fraction(t.bracket[0])}, "
                         f"{fraction(t.bracket[1])}]")
        if risk is not None:
            f = study.stake_factor
            lines.append("  largest stake     " + (
                "any (the ruin stays within the target even from capital 0)" if f is None else
                f"{_dec(f, 4)} x the stakes above, with capital {fraction(risk.capital)}"
                + _scaled_caps(r.session) + _factor_bracket(study)))
    if study.rotation is not None and study.other_rotation is not None:
        lines += ["", *_rotation_text(r, study.rotation, study.other_rotation)]
    return lines


def _bracket_text(risk: SessionRisk) -> list[str]:
    """The ruin between its two bounds, on a coarse lattice; on a sampled round the 95%
    interval on top."""
    assert risk.bracket is not None and risk.unit is not None
    lower, upper = risk.bracket
    line = (f"  P(ruin within {risk.rounds} rounds)  between {_dec(lower, 8)} and "
            f"{_dec(upper, 8)}")
    both, e = risk.interval_bracket, risk.estimate
    if both is not None and e is not None:
        line += (f"  95% interval [{both[0]:.6f}, {both[1]:.6f}] ({e.samples:,} rounds sampled, "
                 f"seed {e.seed})")
    return [line, f"    bounds from the nets rounded to a lattice of {fraction(risk.unit)}, "
                  "toward the bank's gain (lower) and its loss (upper); the figures below "
                  "are the upper chain's (the bank's result at most the true one)"]


def _factor_bracket(study: BankStudy) -> str:
    if study.stake_factors is None:
        return ""
    high = study.stake_factors[1]
    return "; at most any" if high is None else f"; at most {_dec(high, 4)}"


def _scaled_caps(session: Session) -> str:
    """The caps in money a stake factor scales with the stakes (every net scales alike)."""
    caps = [name for name, value in (("round_cap", session.round_cap),
                                     ("max_bonus", session.max_bonus)) if value is not None]
    return f" ({' and '.join(caps)} scaled alike)" if caps else ""


def _capital_interval_text(t: CapitalTarget) -> str:
    if t.interval is None:
        return ""
    lo, hi = t.interval
    return (f"  95% interval [{fraction(lo)}, {fraction(hi)}] ({t.samples:,} rounds sampled, "
            f"seed {t.seed})")


def _mean_result_line(risk: SessionRisk) -> str:
    text = "  expected result (a ruined bank loses its capital)  "
    e = None if risk.estimates is None else risk.estimates.mean_result
    if e is None:
        return text + f"{risk.mean_result:+.4f}"
    return text + (f"{e.value:+.4f}  95% interval [{e.interval[0]:+.4f}, {e.interval[1]:+.4f}] "
                   f"({e.samples:,} rounds sampled, seed {e.seed})")


def _ahead_line(risk: SessionRisk, ahead: float) -> str:
    text = f"  P(ahead after {risk.rounds} rounds)  "
    if risk.estimates is None:
        return text + _dec(ahead, 8)
    a = risk.estimates.ahead
    return text + f"{a.value:.6f}  95% interval [{a.interval[0]:.6f}, {a.interval[1]:.6f}]"


def _quantile_text(risk: SessionRisk, q: float, name: str) -> str:
    iv = risk.quantile_interval(q)
    text = f"{name} {_signed(risk.quantile(q))}"
    return text if iv is None else text + f" [{_signed(iv[0])}, {_signed(iv[1])}]"


def _rotation_text(r: BankRound, mine: Sequence[PersonFigures],
                   other: Sequence[PersonFigures]) -> list[str]:
    rounds = r.session.rounds
    fixed, rotate = (mine, other) if r.session.rotation is Rotation.FIXED else (other, mine)
    lines = [f"who carries the risk over {rounds} rounds ({r.players + 1} persons; "
             "person 0 banks first)",
             *text_table([["person", "fixed: mean", "sd", "rotate: banks", "mean", "sd"]] + [
                 [str(a.person), f"{float(a.mean):+.3f}", f"{a.sd:.3f}", str(b.bank_rounds),
                  f"{float(b.mean):+.3f}", f"{b.sd:.3f}"]
                 for a, b in zip(fixed, rotate, strict=True)],
                 ["  <8", ">12", ">9", ">15", ">10", ">9"])]
    bank_sd, seat_sd = fixed[0].sd, max(p.sd for p in fixed[1:])
    spread = max(p.sd for p in rotate)
    lines.append(
        f"  fixed: person 0 carries the bank's whole risk (sd {bank_sd:.2f} against at most "
        f"{seat_sd:.2f} for a player); rotate: the bank's risk is shared, every person's sd "
        f"is at most {spread:.2f}")
    return lines


def bank_rows(study: BankStudy) -> list[list[str]]:
    """CSV rows: a header block (# lines), then net, probability per net.

    >>> from odds import BUILTIN, Shoe, bank_study
    >>> bank_rows(bank_study(BUILTIN["plain"], Shoe.infinite_shoe(), Session(players=1)))[3:5]
    [['net', 'probability', 'decimal'], ['-1', '2186424/4826809', '0.4529750400']]
    """
    r = study.round
    rows = [[f"# profile {r.profile.key}; rules: {rules_line(r.profile)}"],
            [f"# shoe {r.shoe.label}; players {r.players}; session: {session_line(r.session)}"],
            [f"# {'exact' if r.exact else 'estimate'}: {r.method}"]]
    if r.exact:
        rows.append(["net", "probability", "decimal"])
        rows += [[fraction(v), fraction(p), _dec(p, 10)] for v, p in r.distribution.items()]
    else:
        rows.append(["net", "frequency", "estimate", "interval_low", "interval_high"])
        for v, p in r.distribution.items():
            lo, hi = r.interval(p) or (0.0, 1.0)
            rows.append([fraction(v), fraction(p), f"{float(p):.6f}", f"{lo:.6f}", f"{hi:.6f}"])
    risk, t = study.risk, study.target
    if risk is not None:
        e = risk.estimate
        if risk.bracket is not None:
            rows.append([f"# ruin within {risk.rounds} rounds from capital "
                         f"{fraction(risk.capital)}: between {_chain(risk.bracket[0])} and "
                         f"{_chain(risk.bracket[1])} (lattice {fraction(Fraction(risk.unit or 0))})"])
        how = ("exact" if risk.exact and r.exact else "floating point" if e is None else
               f"estimate, 95% interval [{e.interval[0]:.6f}, {e.interval[1]:.6f}], "
               f"{e.samples:,} rounds sampled, seed {e.seed}")
        rows.append([f"# ruin within {risk.rounds} rounds from capital "
                     f"{fraction(risk.capital)}: {_chain(risk.ruin if e is None else e.value)} "
                     f"({how})"])
    if t is not None:
        rows.append([f"# capital for ruin <= {fraction(t.target)}: {fraction(t.capital)}"
                     + ("" if t.interval is None else
                        f" (estimate, {_capital_interval_text(t).strip()})")])
    return rows


def bank_section_parts(
    profile: Profile, shoe: Shoe, samples: int = 20_000, players: int = 8,
) -> tuple[str, str, tuple[str, ...], tuple[tuple[Fraction | str, ...], ...], str]:
    """(key, title, columns, rows, note) of the reference tables' bank section.

    For ``odds.report.tables.page``: ``Section(*bank_section_parts(profile, shoe))``.
    Exact cells are Fractions; estimated ones are strings that say so.

    >>> from odds import BUILTIN
    >>> key, title, columns, rows, note = bank_section_parts(BUILTIN["plain"], Shoe.infinite_shoe())
    >>> key, columns[0], rows[0][0], rows[0][4], len(rows)
    ('bank', 'players', '1', Fraction(17, 1), 8)
    """
    rows: list[tuple[Fraction | str, ...]] = []
    for row in bank_table_rows(profile, shoe, samples=samples, players=players):
        if row["exact"]:
            rows.append((str(row["players"]), row["mean"], _sd_text(row["variance"]),
                         row["p_loss"], row["capital"]))
        else:
            rows.append((str(row["players"]), f"{float(row['mean']):.4f} (estimate)",
                         _sd_text(row["variance"]) + " (estimate)",
                         f"{float(row['p_loss']):.4f} (estimate)",
                         f"{fraction(row['capital'])} (estimate)"))
    note = ("the bank's net per round, each player staking 1 unit; capital: the smallest "
            "whose ruin risk within 50 rounds is at most 1% (ruined in the first round it "
            "cannot pay from capital plus that round's stakes); exact on the infinite shoe "
            "and heads-up; at N >= 2 on a finite shoe a seeded Monte Carlo estimate of "
            f"{samples:,} rounds")
    if players == 1:
        note += ("; heads-up only here: at N >= 2 on a finite shoe the seats share the cards: "
                 "'lucky9 bank' gives the mean and variance exactly, the distribution exactly "
                 "at N = 2 and as an estimate beyond; the infinite-shoe page has N = 1..8 "
                 "exactly")
    elif len(rows) == 1:
        note += "; one player only: the rules define the bank's draw for one player hand"
    return ("bank", "The bank's risk at a table of N players",
            ("players", "bank mean", "sd", "P(loss > 5 stakes)", "capital for 1% ruin in 50 rounds"),
            tuple(rows), note)


def _sd_text(variance: Fraction) -> str:
    return f"{float(variance) ** 0.5:.4f}"


def bank_table_text(rows: Sequence[Mapping[str, Any]], loss: int = 5, rounds: int = 50) -> list[str]:
    """The reference bank table (from :func:`odds.money.session.bank_table_rows`) as Markdown lines.

    >>> from odds import BUILTIN, Shoe
    >>> bank_table_text(bank_table_rows(BUILTIN["plain"], Shoe.infinite_shoe()))[2]
    '| 1 | 0.000000 | 0.9518 | 0.000000 | 17 | exact |'
    """
    out = [f"| players | bank mean | sd | P(loss > {loss} stakes) | capital for 1% ruin "
           f"over {rounds} rounds | |",
           "|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        out.append(f"| {row['players']} | {_dec(row['mean'])} | {float(row['variance']) ** 0.5:.4f} "
                   f"| {_dec(row['p_loss'])} | {fraction(row['capital'])} | "
                   f"{'exact' if row['capital_exact'] else 'estimate' if not row['exact'] else 'float'} |")
    return out


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    """The plot file, checked before any work: a .svg or .png in an existing folder.

    >>> check_plot_path("bank.pdf")
    Traceback (most recent call last):
    ...
    ValueError: --plot 'bank.pdf': give a .svg or .png file
    """
    target = Path(path)
    if target.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"--plot {excerpt(str(path))}: give a .svg or .png file")
    check_target(os.fspath(path))
    return target


def check_plot_ready() -> None:
    """Raise :class:`PlotUnavailable` unless matplotlib can be imported (before any work).

    Finds the package without importing it (importing costs 0.3 s and 20 MB).
    """
    import importlib.util

    try:
        found = importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise PlotUnavailable(_NO_MATPLOTLIB)


_NO_MATPLOTLIB = ("--plot needs matplotlib, an optional extra: pip install matplotlib (or, in a "
                  "checkout of lucky9-odds, pip install -e '.[plot]')")


def write_plot(study: BankStudy, path: str | os.PathLike[str]) -> None:
    """Draw ruin probability against capital and the per-round net distribution.

    SVG or PNG by the file's suffix; written atomically.  Needs matplotlib.
    """
    target = check_plot_path(path)
    fmt = target.suffix.lower().lstrip(".")
    fig = plot_figure(study)
    import matplotlib.pyplot as plt

    try:
        with AtomicFile(target) as out:  # whole or not at all; a device is written directly
            fig.savefig(out.handle, format=fmt)
    finally:
        plt.close(fig)


def money_axis(axis: Any) -> None:
    """Amounts on a matplotlib axis as people read them: thousands separated (``150,000``),
    and at most six ticks, so that their labels never run together (up to 10^7 and beyond).
    """
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    axis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    axis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.10g}" if abs(x) < 1000
                                           else f"{x:,.0f}"))


def plot_figure(study: BankStudy) -> Any:
    """The figure of :func:`write_plot` (a matplotlib Figure; close it when done)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable(_NO_MATPLOTLIB) from None
    r = study.round
    rounds = r.session.rounds or 50
    top = max(Fraction(10), (r.session.capital or 0) * 2,
              (study.target.capital * 2 if study.target else Fraction(0)))
    capitals, ruin, exact, unit = ruin_curve(study, Fraction(top), rounds)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot([float(c) for c in capitals], [float(p) for p in ruin], drawstyle="steps-post")
    left.set_xlabel("capital")
    money_axis(left.xaxis)
    left.set_ylabel(f"P(ruin within {rounds} rounds)")
    left.set_yscale("log" if any(0 < float(p) < 1e-3 for p in ruin) else "linear")
    how = "exact" if exact and r.exact else "estimate" if not r.exact else "floating point"
    left.set_title(f"ruin against capital ({how}"
                   + ("" if unit is None else f"; upper bound, lattice {fraction(unit)}") + ")")
    if r.session.capital is not None:
        left.axvline(float(r.session.capital), color="grey", linestyle=":", label="capital")
    if study.target is not None:
        left.axhline(float(study.target.target), color="red", linestyle="--", linewidth=0.8,
                     label=f"target {float(study.target.target):g}")
    if r.session.capital is not None or study.target is not None:
        left.legend(fontsize=8)
    values = list(r.distribution)
    gap = min((float(b - a) for a, b in zip(values, values[1:], strict=False)), default=1.0)
    right.bar([float(v) for v in values], [float(r.distribution[v]) for v in values],
              width=0.8 * gap)
    right.set_xlabel("bank's net per round")
    money_axis(right.xaxis)
    right.set_ylabel("probability" if r.exact else "frequency (estimate)")
    right.set_title(f"{r.profile.key}, {r.shoe.label}, {r.players} players")
    fig.suptitle(session_line(r.session), fontsize=8)
    fig.tight_layout()
    return fig
