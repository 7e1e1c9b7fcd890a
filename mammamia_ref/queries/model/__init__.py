"""The z3 models of the game: the rules as z3 terms, one function per rule
(:mod:`.oven_rules`, :mod:`.turn_rules`), one opening of the oven (:mod:`.oven_model`),
whole games unrolled turn by turn (:mod:`.game_terms`, :mod:`.game_model`) and one step
from any well-formed state (:mod:`.free_steps`), the events and the scoring a run tells
(:mod:`.events_model`, :mod:`.scoring_model`), a run replayed by the reference
(:mod:`.decode`), and what is proved for games of every length (:mod:`.proofs`); with
the numbers and the z3 context every term is built in (:mod:`.num`), the variant flags
each model follows (:mod:`.flags`) and bad input to a model (:mod:`.errors`).

The lowest layer of :mod:`mammamia_ref.queries`: it imports none of the others.
"""
