"""The rules of Mamma Mia!: the vocabulary, the state, and one module per chapter.

The lowest layer above :mod:`mammamia_ref.errors`: it imports no other part of the
package. Chapters: :mod:`.setup`, :mod:`.turn`, :mod:`.oven`, :mod:`.round`,
:mod:`.scoring`, and :mod:`.observation` (what a player may know); :mod:`.game` is the
state API that ties them together.
"""
