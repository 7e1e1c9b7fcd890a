"""Playing many games: the fast engine, the policies, simulations, sweeps and counting.

Built on :mod:`mammamia_ref.rules` and :mod:`mammamia_ref.formats`. Before any of its
modules loads, :mod:`mammamia_ref.sim.compiled` decides whether the compiled fast core
(mypyc, optional) or the pure-Python one runs, and refuses a stale build.
"""

from mammamia_ref.sim import compiled as _compiled

_compiled.install()
