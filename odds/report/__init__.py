"""Every renderer and exporter: text, JSON-ready data, CSV, HTML sheets, tree exports.

One module per result it renders.  May import every layer below
(rules, exact, money, game, sim); nothing below imports it.  Shared number
and rules formatting is :mod:`odds.rules.text`.
"""
