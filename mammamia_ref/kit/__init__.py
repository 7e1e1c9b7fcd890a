"""The conformance kit: drive any implementation of Mamma Mia!, in any language, through
our scenarios, counting tables and random games, over a JSON-lines protocol.

- :mod:`.protocol`: the messages and ``mammamia serve``, the reference behind them;
- :mod:`.client`: a guarded subprocess connection (timeouts, restarts, size limits);
- :mod:`.cases`: the cases: scenarios step by step, perft tables, differential random games;
- :mod:`.lockstep`: the reference and the port driven through the same actions;
- :mod:`.compare` and :mod:`.diagnose`: how answers are compared, and the rules a
  divergence names;
- :mod:`.terms`: what a port offers (flags, parameters, its protocol version);
- :mod:`.runner`: the whole run, within its time budget;
- :mod:`.words`: the port's words made inert for a terminal, Markdown and HTML;
- :mod:`.report`: the human summary, JSON lines and JUnit XML, the conformance report;
- :mod:`.versions`: the protocol's versions (``spec/protocol.yaml``), what changed, and
  what the kit compares (``COMPARED``).
"""

from mammamia_ref.kit.versions import current

PROTOCOL = current().id
"""The protocol version spoken: the last of ``spec/protocol.yaml``."""
