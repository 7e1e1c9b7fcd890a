'use strict';
// Chapter "Opening the oven" (oven.*): cards are revealed first played first; ingredients
// go to the table, each order is baked, completed from hand or failed. The owner decides
// only where the rules leave a choice; forced outcomes follow at once.
const C = require('./cards');
const S = require('./state');

/** The rule that governs naming a kind for this order under the flags in force. */
function kindRule(s, order) {
  if (C.orderKey(order) === 'monotoni') return s.variants.monotoni_kind === 'on_table' ? 'oven.monotoni_on_table' : 'oven.monotoni';
  return s.variants.minimale_lowest === 'all_kinds' ? 'oven.minimale_all_kinds' : 'oven.minimale';
}

/** The rule that states an order's recipe. */
function recipeRule(order) {
  const key = C.orderKey(order);
  if (key === 'one_of_each' || key === 'monotoni' || key === 'minimale') return `oven.${key}`;
  return 'oven.standard';
}

/** The kinds the owner may name for a revealed Monotoni or Minimale (oven.monotoni*, oven.minimale*). */
function permittedKinds(s, order) {
  const personal = C.PERSONAL[C.orderColour(order)];
  const others = C.KINDS.filter((k) => k !== personal);
  const onTable = (k) => s.table[k] > 0;
  if (C.orderKey(order) === 'monotoni') return s.variants.monotoni_kind === 'on_table' ? others.filter(onTable) : others;
  const pool = s.variants.minimale_lowest === 'all_kinds' ? C.KINDS.filter(onTable) : others.filter(onTable);
  if (pool.length === 0) return [];
  const lowest = Math.min(...pool.map((k) => s.table[k]));
  return others.filter((k) => onTable(k) && s.table[k] === lowest);
}

function missingFor(s, need) {
  const missing = C.emptyCounts();
  for (const k of C.KINDS) missing[k] = Math.max(0, need[k] - s.table[k]);
  return missing;
}

function covers(have, want) { return C.KINDS.every((k) => have[k] >= want[k]); }
function sameCounts(a, b) { return C.KINDS.every((k) => a[k] === b[k]); }

/** Every way to take exactly `n` ingredient cards from a hand (for a Bombastica's shortfall). */
function handChoices(hand, n) {
  const out = [];
  const pick = C.emptyCounts();
  const walk = (i, left) => {
    if (i === C.KINDS.length) { if (left === 0) out.push({ ...pick }); return; }
    const k = C.KINDS[i];
    for (let c = Math.min(left, hand[k]); c >= 0; c -= 1) { pick[k] = c; walk(i + 1, left - c); }
    pick[k] = 0;
  };
  walk(0, n);
  return out;
}

/** The completions from hand open to the owner of the revealed order (none: it cannot be completed). */
function completions(s) {
  const order = s.reveal.order;
  const hand = s.players[S.ownerOf(s, order)].hand.ingredients;
  if (C.orderKey(order) === 'bombastica') {
    if (s.variants.bombastica_hand === 'forbidden') return [];
    return handChoices(hand, S.params(s).bombastica_total - C.total(s.table));
  }
  const missing = missingFor(s, C.recipe(order, s.reveal.kind, S.params(s)));
  return covers(hand, missing) ? [missing] : [];
}

function finish(s, order, delivered) {
  const player = s.players[S.ownerOf(s, order)];
  if (delivered) player.delivered.push(order);
  else player.waiter.push(order); // oven.fail: face down under the waiter
  s.reveal = null;
}

function fail(s, rule, why, ev) {
  const order = s.reveal.order;
  ev.push({ event: 'failed', rule, seat: S.ownerOf(s, order), order, why });
  finish(s, order, false);
}

/** Bake the revealed order with `fromHand` added by its owner. */
function bake(s, fromHand, completionRule, ev) {
  const order = s.reveal.order;
  const seat = S.ownerOf(s, order);
  const hand = s.players[seat].hand.ingredients;
  const used = C.emptyCounts();
  let fromTable;
  if (C.orderKey(order) === 'bombastica') fromTable = { ...s.table };
  else {
    const need = C.recipe(order, s.reveal.kind, S.params(s));
    fromTable = C.emptyCounts();
    for (const k of C.KINDS) fromTable[k] = need[k] - fromHand[k];
  }
  if (completionRule) ev.push({ event: 'completed_from_hand', rule: completionRule, seat, order, cards: { ...fromHand } });
  for (const k of C.KINDS) {
    hand[k] -= fromHand[k];
    s.table[k] -= fromTable[k];
    used[k] = fromTable[k] + fromHand[k];
    s.used[k] += used[k];
  }
  const rule = C.orderKey(order) === 'bombastica' ? 'oven.bombastica' : 'oven.bake';
  ev.push({ event: 'baked', rule, seat, order, used });
  finish(s, order, true);
}

/** Judge the revealed order once its kind (if any) is fixed: bake, ask the owner, or fail. */
function judge(s, ev) {
  const order = s.reveal.order;
  const bombastica = C.orderKey(order) === 'bombastica';
  const mandatory = s.variants.completion === 'mandatory';
  ev.push(bombastica
    ? { event: 'needs', rule: 'oven.bombastica', order, total: S.params(s).bombastica_total }
    : { event: 'needs', rule: recipeRule(order), order, cards: C.recipe(order, s.reveal.kind, S.params(s)) });
  if (bombastica ? C.total(s.table) >= S.params(s).bombastica_total
    : covers(s.table, C.recipe(order, s.reveal.kind, S.params(s)))) {
    bake(s, C.emptyCounts(), null, ev);
    return;
  }
  const ways = completions(s);
  if (ways.length === 0) {
    if (bombastica && s.variants.bombastica_hand === 'forbidden') {
      fail(s, 'oven.bombastica_table_only', `the table holds fewer than ${S.params(s).bombastica_total}`, ev);
    } else if (bombastica) {
      fail(s, 'oven.fail', `the table and the hand hold fewer than ${S.params(s).bombastica_total}`, ev);
    } else fail(s, 'oven.fail', 'the table and the hand fall short', ev);
  } else if (mandatory && ways.length === 1) {
    bake(s, ways[0], 'oven.complete_mandatory', ev);
  } else {
    s.step = 'complete';
  }
}

function nameKind(s, kind, ev) {
  s.reveal.kind = kind;
  ev.push({ event: 'named_kind', rule: kindRule(s, s.reveal.order), order: s.reveal.order, kind });
  judge(s, ev);
}

/** Kinds the owner is offered: under mandatory completion, those that let the order bake if any do. */
function offeredKinds(s) {
  const order = s.reveal.order;
  const kinds = permittedKinds(s, order);
  if (s.variants.completion !== 'mandatory') return kinds;
  const hand = s.players[S.ownerOf(s, order)].hand.ingredients;
  const feasible = kinds.filter((k) => covers(hand, missingFor(s, C.recipe(order, k, S.params(s)))));
  return feasible.length > 0 ? feasible : kinds;
}

function reveal(s, order, ev) {
  const owner = S.ownerOf(s, order);
  s.current = owner;
  s.reveal = { order, kind: null };
  ev.push({ event: 'revealed', rule: 'oven.open', card: order, owner });
  const key = C.orderKey(order);
  if (key !== 'monotoni' && key !== 'minimale') { judge(s, ev); return; }
  const kinds = offeredKinds(s);
  if (kinds.length === 0) fail(s, kindRule(s, order), 'no kind can be named', ev);
  else if (kinds.length === 1) nameKind(s, kinds[0], ev);
  else s.step = 'name_kind';
}

/** Reveal cards until the oven is empty (true) or an owner must decide (false). */
function resolve(s, ev) {
  while (s.reveal === null && s.oven.length > 0) {
    const card = s.oven.shift();
    if (C.isKind(card)) {
      s.table[card] += 1;
      ev.push({ event: 'revealed', rule: 'oven.sort', card });
    }
    else reveal(s, card, ev);
  }
  return s.reveal === null;
}

function legalActions(s) {
  if (s.step === 'name_kind') return offeredKinds(s).map((kind) => ({ type: 'name_kind', kind }));
  const out = completions(s).map((cards) => ({ type: 'complete', cards }));
  if (s.variants.completion !== 'mandatory') out.push({ type: 'decline' });
  return out;
}

/** The rule of the owner's pending decision (feature seats: what refuses another seat). */
function decisionRule(s) {
  return s.step === 'name_kind' ? kindRule(s, s.reveal.order) : 'oven.complete_from_hand';
}

/** The owner's decision at the oven; the caller then carries on revealing. */
function applyDecision(s, action, ev) {
  const order = s.reveal.order;
  const bombastica = C.orderKey(order) === 'bombastica';
  const mandatory = s.variants.completion === 'mandatory';
  if (s.step === 'name_kind') {
    const rule = kindRule(s, order);
    if (action.type !== 'name_kind') throw new S.Rejected(rule, `${action.type} is not the decision here (a kind must be named)`);
    if (!offeredKinds(s).includes(action.kind)) throw new S.Rejected(rule, `${action.kind} may not be named for ${order}`);
    nameKind(s, action.kind, ev);
    return;
  }
  const completeRule = mandatory ? 'oven.complete_mandatory' : 'oven.complete_from_hand';
  if (action.type === 'decline') {
    if (mandatory) throw new S.Rejected('oven.complete_mandatory', 'an owner able to complete the order must do so');
    fail(s, 'oven.complete_from_hand', 'the owner declined', ev);
    return;
  }
  if (action.type !== 'complete') throw new S.Rejected('oven.complete_from_hand', `${action.type} is not the decision here (complete or decline)`);
  let cards;
  try { cards = S.fullCounts(action.cards, 'cards'); } catch (e) { cards = null; }
  const ways = completions(s);
  if (cards === null || !ways.some((w) => sameCounts(w, cards))) {
    throw new S.Rejected(bombastica ? 'oven.bombastica' : 'oven.complete_from_hand', `these cards do not complete ${order}`);
  }
  bake(s, cards, completeRule, ev);
}

module.exports = { resolve, legalActions, decisionRule, applyDecision };
