'use strict';
// Chapter "End of the game and the winner" (game_end.*): most delivered orders, then most
// ingredient cards in hand, then a shared win or the first clockwise from the last holder.
const C = require('./cards');

/** The winning seats and the rule that decided. */
function winners(s) {
  const n = s.players.length;
  const delivered = s.players.map((p) => p.delivered.length);
  const best = Math.max(...delivered);
  let seats = delivered.map((d, i) => i).filter((i) => delivered[i] === best);
  if (seats.length === 1) return { seats, rule: 'game_end.most_delivered' };
  const inHand = (i) => C.total(s.players[i].hand.ingredients);
  const most = Math.max(...seats.map(inHand));
  seats = seats.filter((i) => inHand(i) === most);
  if (seats.length === 1) return { seats, rule: 'game_end.tie_break' };
  if (s.variants.final_tie === 'shared') return { seats, rule: 'game_end.shared_win' };
  const holder = s.mamma_mia === null ? s.current : s.mamma_mia;
  for (let i = 0; i < n; i += 1) {
    const seat = (holder + i) % n;
    if (seats.includes(seat)) return { seats: [seat], rule: 'game_end.seat_order_win' };
  }
  throw new Error('unreachable');
}

/** The state's `result`: the winners' colours and the deciding rule, with the figures it weighed. */
function result(s) {
  const w = winners(s);
  const perColour = (f) => Object.fromEntries(s.players.map((p) => [p.colour, f(p)]));
  return {
    winners: w.seats.slice().sort((a, b) => a - b).map((i) => s.players[i].colour),
    rule: w.rule,
    delivered: perColour((p) => p.delivered.length),
    ingredients_left: perColour((p) => C.total(p.hand.ingredients)),
  };
}

function endGame(s, ev) {
  s.phase = 'over';
  s.step = 'over';
  ev.push({ event: 'game_ended', rule: 'game_end.three_resolutions', resolutions: s.resolutions });
  const w = winners(s);
  s.result = result(s);
  ev.push({ event: 'winners', rule: w.rule, seats: w.seats, delivered: s.players.map((p) => p.delivered.length) });
}

module.exports = { winners, result, endGame };
