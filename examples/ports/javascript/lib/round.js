'use strict';
// Chapters "End of a round" and "Preparing the next round" (round_end.*, mamma_mia.holder,
// next_round.*): the holder opens the oven; afterwards the leftovers wait for the next
// opening and the used pile, any supply left and the Mamma Mia! card make the next supply.
const C = require('./cards');
const S = require('./state');
const oven = require('./oven');
const turn = require('./turn');
const scoring = require('./scoring');

function endRound(s, rule, ev) {
  ev.push({ event: 'round_ended', rule, round: s.round });
  s.phase = 'oven';
  s.current = s.mamma_mia; // until an owner must decide; resolve() sets the step it waits at
  ev.push({ event: 'oven_opened', rule: 'mamma_mia.holder', seat: s.mamma_mia, cards: s.oven.length });
  carryOn(s, ev);
}

/** round_end.stall: a full cycle of quiet turns; the next player takes the card if nobody holds it. */
function stallRound(s, ev) {
  if (s.mamma_mia === null) {
    const next = (s.current + 1) % S.seats(s);
    s.supply.splice(s.supply.indexOf(C.MAMMA_MIA), 1);
    s.mamma_mia = next;
    ev.push({ event: 'mamma_mia_taken', rule: 'round_end.stall', seat: next });
  }
  endRound(s, 'round_end.stall', ev);
}

/** Go on revealing; once the oven is empty, finish the opening. */
function carryOn(s, ev) {
  if (!oven.resolve(s, ev)) { s.phase = 'oven'; return; }
  const holder = s.mamma_mia;
  s.current = holder;
  s.resolutions += 1;
  const left = C.total(s.table);
  if (s.resolutions >= S.params(s).rounds) { scoring.endGame(s, ev); return; }
  if (s.variants.leftovers === 'oven') {
    s.oven = C.cardsOf(s.table);
    s.table = C.emptyCounts();
    ev.push({ event: 'leftovers_to_oven', rule: 'next_round.oven', cards: left });
  } else {
    ev.push({ event: 'leftovers_stay', rule: 'next_round.leftovers_on_table', cards: left });
  }
  // The next supply waits for its shuffle in canonical order, the Mamma Mia! card last.
  const gathered = C.countsOf(s.supply.filter(C.isKind));
  for (const k of C.KINDS) gathered[k] += s.used[k];
  s.supply = C.cardsOf(gathered).concat([C.MAMMA_MIA]);
  s.used = C.emptyCounts();
  s.mamma_mia = null;
  s.round += 1;
  s.phase = 'shuffle';
  s.step = 'supply';
  ev.push({ event: 'supply_gathered', rule: 'next_round.supply', cards: s.supply.length });
}

/** The next round's supply shuffled: the holder starts (a supply without ingredients may end it at once). */
function applySupplyShuffle(s, action, ev) {
  if (action.type !== 'shuffle') throw new S.Rejected('next_round.supply', `${action.type} is not the decision here (the supply must be shuffled)`);
  const { isShuffleOf } = require('./setup');
  if (action.pile !== 'supply' || !isShuffleOf(action.order, s.supply)) {
    throw new S.Rejected('next_round.supply', 'the order given is not a shuffle of the supply');
  }
  s.supply = action.order.slice();
  s.quiet_turns = 0;
  turn.beginTurn(s, s.current, 'next_round.first_player', ev);
  const ended = turn.supplyEnds(s);
  if (ended === 'round_end.last_ingredient') {
    turn.takeLeftMammaMia(s, s.current, ev);
    endRound(s, ended, ev);
  }
}

module.exports = { endRound, stallRound, carryOn, applySupplyShuffle };
