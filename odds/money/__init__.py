"""Money: symbolic pay tables, break-even values, the bank's edge and its risk.

Imports :mod:`odds.rules` and :mod:`odds.exact`; sympy is imported where a
symbol is needed, not here.
"""

from odds.money.bank import BankRound, bank_round
from odds.money.session import BankStudy, bank_study

__all__ = ["BankRound", "BankStudy", "bank_round", "bank_study"]
