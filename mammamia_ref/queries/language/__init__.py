"""The question language (``spec/questions/``, ``docs/questions.md``): the
question format read and checked (:mod:`.questions`), the variables a condition binds
(:mod:`.variables`), and what a condition means, on a game the reference played
(:mod:`.judging`) and as a z3 term over a run of the game model (:mod:`.conditions`).

Above :mod:`..model` (which :mod:`.conditions` encodes over), below the answering.
"""
