"""Answering a question (``mammamia ask``): each cell by its routes
(:mod:`.ask`): the games the package ships (:mod:`.known_games`), the seeded search on
the reference (:mod:`.searching`), the game model
within a bound (:mod:`.bounded`), the proof for games of every length
(:mod:`.unbounded`) and optima raised by the solver (:mod:`.optimum`); the witness
games written as scenarios (:mod:`.witness`); Ctrl-C during z3 work (:mod:`.interrupt`,
:mod:`.cancel`).

Above :mod:`..model` and :mod:`..language`, below the catalogue.
"""
