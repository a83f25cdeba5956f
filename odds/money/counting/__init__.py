"""The shoe study: is any bet worth counting?

N shoes of D packs are shuffled (:func:`odds.exact.deal.shuffled_ranks`,
shoe k of seed S the same whatever the processes), ``burn`` cards are burned
face down (or, ``burn_rule="casino"``, the first card is shown and its value
burned face down), and the shoe is dealt to the cut card: a round starts
while more than ``cut_cards`` cards are left behind it (or, given as a share,
while fewer than ``int(penetration * 52 D)`` cards are out), and six are
left; ``rounds_after_cut`` rounds more follow the one the cut card comes out
in.
Before every round the shoe's composition **as the player knows it** (the
full shoe less the cards seen; burned cards are unseen, so they stay in) is
evaluated **exactly** for every bet (:mod:`odds.exact.bet_table`), all the
rounds of a batch of shoes in one matrix product.

The study's figures are then statistics over rounds, computed in float64
from those exact per-round EVs: **estimates** over N shoes, each with its
standard error (rounds of one shoe are not independent, so every standard
error treats the shoe as the unit: ratio estimators over per-shoe sums).
Only moment sums per chunk of shoes are kept, never the rounds, so the
memory of a study does not grow with its size.

Per bet (any bet: :func:`odds.exact.bet_table.bet_set`):

* the distribution of the exact EV across rounds (percentiles to 1e-5,
  histogram), how often it is positive and by how much;
* the strategies, each with its bets per shoe, EV when betting (the
  bettor's mean EV of the rounds bet, ``edge_when_betting``), units won per
  shoe and per 100 hands dealt (all with standard errors):

  - ``perfect_information``: stake 1 exactly when the exact EV is positive
    (the ceiling of any count), and ``perfect_information_spread``, a 1-4
    ramp on the exact EV;
  - ``linear_count``: the best linear count from the effects of removal of
    a fresh shoe (:func:`odds.exact.removal.removal`): with ``g_r`` the
    change in EV per card of rank r removed, a shoe of N cards less the
    seen cards S has, to first order, ``EV = EV0 + (N0 - 1) / N * sum(g_c
    for c in S)``; ``tag_count``: its integer tags (``g`` scaled to at most
    3 and rounded), read against its expectation;
  - ``system``: a count system given as input (:class:`CountSystem`: tags
    per rank, balanced with a true-count trigger, or unbalanced from an
    initial running count with a running-count trigger);

* **exact EVs against sampled outcomes**: the same strategies settled on
  the rounds the shoes really dealt, so the standard error a simulation of
  outcomes would have on the same shoes, and the factor of shoes it would
  need for the standard error of the exact-EV study (``variance_factor``).

* **a counter's figures** (:class:`Bankroll`): for the flat bet, the count
  system and a Kelly ramp, the standard deviation of a shoe's result, N0,
  the risk of ruin and the win a shoe at a given risk; and each count
  bucket's share of rounds and mean EV (``count_buckets``, from per-shoe
  bucket sums, so any ramp's per-shoe moments follow).

``colon-share`` (the part of the seat's EV its Colon pays add) is not a
wager one can place alone: it gets the distribution, the counts'
correlations and its value settled on the rounds dealt, not the betting
figures.

The work is a pure function of a :class:`StudyPlan` and a range of shoes
(:func:`evaluate_chunk`), whose results add up (:class:`ChunkSums`), so the
chunks run in one process, in a pool (``jobs``) or on a cluster, and the
figures never depend on how they were spread.

The package by job, each module importing only those above it in this list:
``plan`` (the count system, the settings checked, the picklable plan),
``kernel`` (a chunk of shoes dealt and evaluated, as moment sums),
``summary`` (the figures from the sums), ``folder`` (a study saved chunk by
chunk, resumed), ``cluster`` (the chunks on a Dask cluster), ``study``
(:func:`count_study`: the chunks on a runner, folded in shoe order) and
``grid`` (:func:`count_grid`).
"""

from odds.money.counting.grid import MAX_CELLS, CountGrid, count_grid
from odds.money.counting.kernel import (
    SHOES_PER_BATCH,
    SPREAD,
    ChunkSums,
    deal_compositions,
    evaluate_chunk,
)
from odds.money.counting.plan import (
    MAX_JOBS,
    MAX_SHOES,
    TAG_LEVEL,
    CountSystem,
    StudyPlan,
    integer_tags,
    study_plan,
)
from odds.money.counting.study import count_study
from odds.money.counting.summary import Bankroll, BetStudy, CountStudy

__all__ = ["MAX_CELLS", "MAX_JOBS", "MAX_SHOES", "SHOES_PER_BATCH", "SPREAD", "TAG_LEVEL",
           "Bankroll", "BetStudy", "ChunkSums", "CountGrid", "CountStudy", "CountSystem", "StudyPlan",
           "count_grid", "count_study", "deal_compositions", "evaluate_chunk", "integer_tags",
           "study_plan"]
