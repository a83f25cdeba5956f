"""Money: symbolic pay tables, break-even values, the bank's edge.

Imports :mod:`odds.rules` and :mod:`odds.exact`; sympy is imported where a
symbol is needed, not here.
"""
