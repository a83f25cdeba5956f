"""Money: symbolic pay tables, break-even values, the bank's edge and its risk.

Imports :mod:`odds.rules` and :mod:`odds.exact`; sympy is imported where a
symbol is needed, not here.  The bank's side of the table, by job: ``bank``
(its net per round), ``chain`` (a session's lattice and bounds), ``ruin``
(ruin within R rounds), ``sampling`` (its interval on a sampled round),
``target`` (the capital for a target), ``rotation`` (each person's result)
and ``session`` (everything ``lucky9 bank`` shows).
"""

from odds.money.bank import BankRound, bank_round
from odds.money.rotation import PersonFigures, rotation_figures
from odds.money.ruin import CHAIN_BUDGET, SessionRisk, ruin_by_capital, session_risk
from odds.money.sampling import Estimate, SessionEstimates, ruin_estimate, session_estimates
from odds.money.session import BankStudy, bank_study, bank_table_rows
from odds.money.target import CapitalTarget, capital_for_target, largest_stake

__all__ = ["CHAIN_BUDGET", "BankRound", "BankStudy", "CapitalTarget", "Estimate", "PersonFigures",
           "SessionEstimates", "SessionRisk", "bank_round", "bank_study", "bank_table_rows",
           "capital_for_target", "largest_stake", "rotation_figures", "ruin_by_capital",
           "ruin_estimate", "session_estimates", "session_risk"]
