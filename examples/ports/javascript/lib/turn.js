'use strict';
// Chapter "The turn" (turn.*, mamma_mia.draw): play one kind (or pass), optionally place
// one order, then draw from one source. Drawing may end the round (round_end.*).
const C = require('./cards');
const S = require('./state');

function beginTurn(s, seat, rule, ev) {
  s.phase = 'turn';
  s.step = 'play';
  s.current = seat;
  s.played = 0;
  ev.push({ event: 'turn_begins', rule, seat, round: s.round });
}

/** How many cards the draw may take: the refill rule in force (turn.draw, turn.draw_as_played). */
function allowance(s) {
  if (s.variants.refill === 'as_many_as_played') return s.played;
  return Math.max(0, S.params(s).hand_limit - S.handSize(s.players[s.current]));
}

function legalActions(s) {
  const hand = s.players[s.current].hand;
  if (s.step === 'play') {
    if (C.total(hand.ingredients) === 0) return [{ type: 'pass' }];
    const out = [];
    for (const kind of C.KINDS) for (let n = 1; n <= hand.ingredients[kind]; n += 1) out.push({ type: 'play', kind, count: n });
    return out;
  }
  if (s.step === 'order') {
    return [...new Set(hand.orders)].map((order) => ({ type: 'place_order', order })).concat([{ type: 'no_order' }]);
  }
  const out = [];
  for (const source of ['supply', 'waiter']) {
    if (s.variants.draw_amount === 'any') {
      for (let n = 0; n <= allowance(s); n += 1) out.push({ type: 'draw', source, count: n });
    } else out.push({ type: 'draw', source });
  }
  return out;
}

function afterCardsPlayed(s) {
  s.step = s.players[s.current].hand.orders.length > 0 ? 'order' : 'draw';
}

function play(s, action, ev) {
  const hand = s.players[s.current].hand;
  if (action.type === 'pass') {
    if (C.total(hand.ingredients) > 0) throw new S.Rejected('turn.pass', 'a player holding ingredient cards may not pass');
    ev.push({ event: 'passed', rule: 'turn.pass', seat: s.current });
    if (s.variants.pass_order === 'allowed') afterCardsPlayed(s);
    else s.step = 'draw';
    return;
  }
  if (action.type !== 'play') throw new S.Rejected('turn.play', `${action.type} is not the decision here (ingredients must be played first)`);
  const { kind, count } = action;
  if (!C.isKind(kind) || !Number.isInteger(count) || count < 1 || hand.ingredients[kind] < count) {
    throw new S.Rejected('turn.play', `cannot play ${count} ${kind} from this hand`);
  }
  hand.ingredients[kind] -= count;
  for (let i = 0; i < count; i += 1) s.oven.push(kind);
  s.played += count;
  ev.push({ event: 'played', rule: 'turn.play', seat: s.current, kind, count });
  afterCardsPlayed(s);
}

function placeOrder(s, action, ev) {
  const hand = s.players[s.current].hand;
  const passed = s.played === 0;
  const rule = passed ? 'turn.pass_with_order' : 'turn.place_order';
  if (action.type === 'no_order') { s.step = 'draw'; return; }
  if (action.type !== 'place_order') throw new S.Rejected('turn.place_order', `${action.type} is not the decision here (an order or none)`);
  const i = hand.orders.indexOf(action.order);
  if (i < 0) throw new S.Rejected('turn.place_order', `${action.order} is not in hand`);
  hand.orders.splice(i, 1);
  s.oven.push(action.order);
  s.played += 1;
  ev.push({ event: 'placed_order', rule, seat: s.current, order: action.order });
  s.step = 'draw';
}

/** How the round ends once the supply runs out, under the round_end flag; null if it goes on. */
function supplyEnds(s) {
  if (s.variants.round_end === 'last_card') return s.supply.length === 0 ? 'round_end.last_card' : null;
  return s.supply.some(C.isKind) ? null : 'round_end.last_ingredient';
}

/** Under last_ingredient the Mamma Mia! card left in an ingredient-less supply goes to `seat`. */
function takeLeftMammaMia(s, seat, ev) {
  const i = s.supply.indexOf(C.MAMMA_MIA);
  if (i < 0) return;
  s.supply.splice(i, 1);
  s.mamma_mia = seat;
  ev.push({ event: 'mamma_mia_taken', rule: 'round_end.last_ingredient', seat });
}

function drawSupply(s, wanted, ev) {
  const hand = s.players[s.current].hand;
  const got = C.emptyCounts();
  let count = 0;
  let ended = null;
  while (count < wanted && s.supply.length > 0) {
    const card = s.supply.shift();
    if (card === C.MAMMA_MIA) {
      s.mamma_mia = s.current;
      ev.push({ event: 'mamma_mia_drawn', rule: 'mamma_mia.draw', seat: s.current });
    } else {
      hand.ingredients[card] += 1;
      got[card] += 1;
      count += 1;
    }
    ended = supplyEnds(s);
    if (ended) break;
  }
  return { count, got, ended };
}

/** The rule a draw followed: a short source, a chosen smaller count, or the refill rule. */
function drawRule(s, short, refillRule) {
  if (s.variants.draw_amount === 'any') return 'turn.draw_fewer';
  return short ? 'turn.draw_short' : refillRule;
}

function draw(s, action, ev) {
  const seat = s.current;
  const player = s.players[seat];
  const any = s.variants.draw_amount === 'any';
  const allowed = allowance(s);
  if (action.type === 'place_order') {
    throw new S.Rejected(s.played === 0 ? 'turn.pass' : 'turn.place_order', 'no order may be placed now');
  }
  if (action.type !== 'draw') throw new S.Rejected('turn.draw', `${action.type} is not the decision here (the draw)`);
  if (action.source !== 'supply' && action.source !== 'waiter') throw new S.Rejected('turn.draw', `unknown source ${action.source}`);
  let wanted = allowed;
  if (any) {
    if (!Number.isInteger(action.count) || action.count < 0 || action.count > allowed) {
      throw new S.Rejected('turn.draw_fewer', `draw a count from 0 to ${allowed}`);
    }
    wanted = action.count;
  } else if (action.count !== undefined) {
    throw new S.Rejected('turn.draw', 'the draw takes the full allowance; no count may be named');
  }
  const refillRule = s.variants.refill === 'as_many_as_played' ? 'turn.draw_as_played' : 'turn.draw';
  let moved = s.played > 0;
  let ended = null;
  if (action.source === 'waiter') {
    const taken = player.waiter.splice(0, wanted);
    player.hand.orders.push(...taken);
    S.sortOrders(player.hand.orders);
    const short = taken.length < wanted;
    ev.push({ event: 'drew', rule: drawRule(s, short, refillRule), seat, source: 'waiter', count: taken.length });
    moved = moved || taken.length > 0;
  } else {
    // House rule draw_piles=both (turn.draw_both): the waiter's top order comes first.
    if (s.variants.draw_piles === 'both' && wanted > 0 && player.waiter.length > 0) {
      player.hand.orders.push(...player.waiter.splice(0, 1));
      S.sortOrders(player.hand.orders);
      ev.push({ event: 'drew', rule: 'turn.draw_both', seat, source: 'waiter', count: 1 });
      wanted -= 1;
      moved = true;
    }
    const supplyBefore = s.supply.length;
    const drawnEvents = [];
    const r = drawSupply(s, wanted, drawnEvents);
    const short = r.count < wanted;
    ev.push({ event: 'drew', rule: drawRule(s, short, refillRule), seat, source: 'supply', count: r.count, cards: r.got });
    ev.push(...drawnEvents);
    moved = moved || s.supply.length < supplyBefore;
    ended = r.ended;
    if (ended === 'round_end.last_ingredient') takeLeftMammaMia(s, seat, ev);
  }
  const round = require('./round');
  s.quiet_turns = moved ? 0 : Math.min(S.seats(s), s.quiet_turns + 1);
  if (ended) { round.endRound(s, ended, ev); return; }
  if (s.variants.stall === 'cut' && s.quiet_turns >= S.seats(s)) { round.stallRound(s, ev); return; }
  beginTurn(s, (seat + 1) % S.seats(s), 'turn.clockwise', ev);
}

const STEP_RULES = { play: 'turn.play', order: 'turn.place_order', draw: 'turn.draw' };

function applyTurn(s, action, ev) {
  if (action.type === 'play' && s.step !== 'play' && s.played > 0) {
    throw new S.Rejected('turn.play', 'one play a turn: the cards of this turn are already played');
  }
  if (s.step === 'play') play(s, action, ev);
  else if (s.step === 'order') placeOrder(s, action, ev);
  else draw(s, action, ev);
}

module.exports = { STEP_RULES, beginTurn, legalActions, applyTurn, supplyEnds, takeLeftMammaMia };
