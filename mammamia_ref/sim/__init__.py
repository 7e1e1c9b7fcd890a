"""Playing many games: the fast engine, the policies, simulations, sweeps and counting.

Built on :mod:`mammamia_ref.rules` and :mod:`mammamia_ref.formats`.
"""
