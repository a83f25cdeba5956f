"""Fixtures of the money tests."""

from __future__ import annotations

import pytest

from odds import BUILTIN
from tests.bank_brute import _brute_types


@pytest.fixture(scope="session")  # a brute force of the tests' own: once a test process
def tiny_tallies():
    standard = BUILTIN["standard"]
    special = standard.with_options(bonus_on="always", bank_bonus="on", bank_colon="2",
                                    bank_colon_nine="3", colon="5/2")
    out = {}
    for name, profile in (("standard", standard), ("always+bank", special)):
        plain = profile.with_options(colon="none", colon_nine="none")
        out[name] = (profile, _brute_types(profile, plain))
    return out
