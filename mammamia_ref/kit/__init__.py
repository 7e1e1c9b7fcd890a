"""The conformance kit: drive any implementation of Mamma Mia!, in any language, through
our scenarios, counting tables and random games, over a JSON-lines protocol.

- :mod:`.protocol`: the messages and ``mammamia serve``, the reference behind them;
- :mod:`.client`: a guarded subprocess connection (timeouts, restarts, size limits);
- :mod:`.runner`: scenarios step by step, perft tables and differential random games;
- :mod:`.report`: the human summary, JSON lines and JUnit XML, the conformance report;
- :mod:`.versions`: the protocol's versions (``spec/protocol.yaml``) and what changed.
"""

from mammamia_ref.kit.versions import current

PROTOCOL = current().id
"""The protocol version spoken: the last of ``spec/protocol.yaml``."""
