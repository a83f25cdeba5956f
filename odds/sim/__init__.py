"""Simulation and its judge: the simulator, tallies and logs, and the verifier.

The verifier is split by job: :mod:`odds.sim.logs` reads files,
:mod:`odds.sim.audit` checks every row against the rules,
:mod:`odds.sim.stats` tests frequencies, and :mod:`odds.sim.verify` puts
them together.  Imports :mod:`odds.rules` and :mod:`odds.exact`; numpy and
mpmath are imported by these modules, so nothing is re-exported here.
"""
