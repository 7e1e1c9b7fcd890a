'use strict';
// Chapter "What a player may know" (information.*): the observation of one seat, or of a
// spectator (null), in the canonical observation JSON (docs/observation.md).
const C = require('./cards');

function ovenView(s, player) {
  const opening = s.phase === 'oven';
  const top = !opening && s.oven.length > 0 ? s.oven[s.oven.length - 1] : null;
  const mine = player === null ? null : s.players[player].colour;
  const stack = [];
  s.oven.forEach((card, i) => {
    if (C.isKind(card)) {
      const last = stack[stack.length - 1];
      if (last && last.kind === card) last.count += 1;
      else stack.push({ kind: card, count: 1 });
      return;
    }
    const colour = C.orderColour(card);
    const onTop = !opening && i === s.oven.length - 1;
    const known = s.variants.oven_memory === 'seen' || colour === mine || onTop;
    stack.push({ colour, order: known ? card : null });
  });
  return { top, stack };
}

function observation(s, player) {
  const counted = s.variants.card_counts === 'public';
  const open = s.variants.used_pile === 'open';
  const own = (i) => player !== null && i === player;
  return {
    format: 'mammamia-observation/1',
    player,
    first_player: s.first_player,
    variants: { ...s.variants },
    ...(s.parameters ? { parameters: JSON.parse(JSON.stringify(s.parameters)) } : {}),
    phase: s.phase,
    step: s.step,
    current: s.current,
    round: s.round,
    resolutions: s.resolutions,
    played: s.played,
    quiet_turns: s.quiet_turns,
    mamma_mia: s.mamma_mia,
    reveal: s.reveal === null ? null : { ...s.reveal },
    hand: player === null ? null
      : { ingredients: { ...s.players[player].hand.ingredients }, orders: s.players[player].hand.orders.slice() },
    players: s.players.map((p, i) => ({
      colour: p.colour,
      hand_size: counted || own(i) ? { ingredients: C.total(p.hand.ingredients), orders: p.hand.orders.length } : null,
      waiter_size: counted || own(i) ? p.waiter.length : null,
      delivered: p.delivered.slice(),
    })),
    supply_size: counted ? s.supply.length : null,
    oven: ovenView(s, player),
    table: { ...s.table },
    used: open ? { ...s.used } : null,
    used_size: counted || open ? C.total(s.used) : null,
    box: { ...s.box },
  };
}

module.exports = { observation };
