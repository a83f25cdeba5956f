"""The expected result of an estimated session: its 95% interval, samples and seed."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction as F

from click.testing import CliRunner

from odds.cli import main
from odds.money.ruin import session_risk
from odds.money.sampling import session_estimates

ROUND = {F(2): F(3, 10), F(0): F(2, 10), F(-1): F(3, 10), F(-3): F(2, 10)}


def _sampled(n: int, seed: int) -> dict[F, F]:
    rng = random.Random(seed)
    nets, weights = zip(*ROUND.items(), strict=True)
    got = Counter(rng.choices(nets, weights=[float(w) for w in weights], k=n))
    return {v: F(c, n) for v, c in got.items()}


def test_the_expected_result_is_the_chain_s_own_and_its_interval_covers_the_truth() -> None:
    exact = session_risk(ROUND, 4, 6).mean_result
    covered = 0
    for seed in range(40):
        sample = _sampled(1500, seed)
        e = session_estimates(sample, 1500, 4, 6, quantiles={0.5: F(0)}).mean_result
        assert e is not None and e.samples == 1500
        assert abs(e.value - session_risk(sample, 4, 6).mean_result) < 1e-9
        assert e.interval[0] < e.value < e.interval[1]
        covered += e.interval[0] <= exact <= e.interval[1]
    assert 33 <= covered <= 40  # about 95% of 40


def test_the_bank_prints_the_expected_result_s_interval() -> None:
    args = ["bank", "--players", "3", "--decks", "1", "--samples", "2000", "--capital", "10",
            "--rounds", "5"]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    line = next(x for x in text.output.splitlines() if "expected result" in x)
    assert "without an interval" not in line
    assert "95% interval [" in line and line.endswith("(2,000 rounds sampled, seed 1)")
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).output)
    e = data["session_risk"]["expected_result_estimate"]
    assert e["samples"] == 2000 and e["seed"] == 1 and e["level"] == 0.95
    assert e["interval"][0] < e["estimate"] < e["interval"][1]
    assert f"{e['estimate']:+.4f}  95% interval [{e['interval'][0]:+.4f}" in line
