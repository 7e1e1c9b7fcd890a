'use strict';
// The canonical state JSON (docs/state-format.md) is this port's own state: every
// transition works on a copy of it, so what the kit compares is what the engine holds.
const C = require('./cards');

class Rejected extends Error {
  /** An illegal action: answered as `rejected` with the rule that forbids it. */
  constructor(rule, message) { super(`${message} [${rule}]`); this.rule = rule; }
}

class BadRequest extends Error {}

function clone(state) { return JSON.parse(JSON.stringify(state)); }
function seats(state) { return state.players.length; }
function handSize(player) { return C.total(player.hand.ingredients) + player.hand.orders.length; }
function seatOfColour(state, colour) { return state.players.findIndex((p) => p.colour === colour); }
function ownerOf(state, order) { return seatOfColour(state, C.orderColour(order)); }
function sortOrders(orders) { orders.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)); }

/** Every flag with its value: the defaults, overridden by `given`; unknown flags or values are refused. */
function fullVariants(given) {
  if (given === null || given === undefined) given = {};
  if (typeof given !== 'object' || Array.isArray(given)) throw new BadRequest('variants is a map of flags to values');
  const out = {};
  for (const [flag, values] of Object.entries(C.VARIANTS)) out[flag] = values[0];
  for (const [flag, value] of Object.entries(given)) {
    if (!(flag in C.VARIANTS)) throw new BadRequest(`unknown variant flag ${JSON.stringify(flag)}`);
    if (!C.VARIANTS[flag].includes(value)) throw new BadRequest(`unknown value ${JSON.stringify(value)} for ${flag}`);
    out[flag] = value;
  }
  return out;
}

function fullCounts(counts, what) {
  if (counts === null || typeof counts !== 'object' || Array.isArray(counts)) throw new BadRequest(`${what} is a count map`);
  const out = C.emptyCounts();
  for (const [k, n] of Object.entries(counts)) {
    if (!C.isKind(k) || !Number.isInteger(n) || n < 0) throw new BadRequest(`${what}: bad count ${k}=${n}`);
    out[k] = n;
  }
  return out;
}

const KEYS = ['format', 'players', 'first_player', 'variants', 'phase', 'step', 'current', 'round',
  'resolutions', 'supply', 'oven', 'table', 'used', 'box', 'mamma_mia', 'played', 'quiet_turns', 'reveal'];

/**
 * A canonical state from a loaded one: count maps completed, orders sorted, and the
 * cards checked to add up (every card exactly once), since a state that loses cards
 * cannot be played on.
 */
function loadState(doc) {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new BadRequest('state is an object');
  for (const key of KEYS) if (!(key in doc)) throw new BadRequest(`state lacks ${key}`);
  if (doc.format !== 'mammamia-state/1') throw new BadRequest(`unknown state format ${JSON.stringify(doc.format)}`);
  const s = clone(doc);
  const n = s.players.length;
  if (!Array.isArray(s.players) || n < 2 || n > 5) throw new BadRequest('2 to 5 players');
  s.variants = fullVariants(s.variants);
  for (const p of s.players) {
    if (!(p.colour in C.PERSONAL)) throw new BadRequest(`unknown colour ${p.colour}`);
    p.hand.ingredients = fullCounts(p.hand.ingredients, 'hand');
    sortOrders(p.hand.orders);
    if (handSize(p) > C.HAND_LIMIT) throw new BadRequest(`a hand of more than ${C.HAND_LIMIT} cards`);
  }
  for (const key of ['table', 'used', 'box']) s[key] = fullCounts(s[key], key);
  // Cards add up: 13 of each kind, the Mamma Mia! card once, each seat's orders once.
  const kinds = C.emptyCounts();
  const add = (counts) => { for (const k of C.KINDS) kinds[k] += counts[k]; };
  let mammaMia = s.mamma_mia === null ? 0 : 1;
  for (const card of s.supply.concat(s.oven)) {
    if (card === C.MAMMA_MIA) mammaMia += 1;
    else if (C.isKind(card)) kinds[card] += 1;
    else if (!C.isOrder(card)) throw new BadRequest(`unknown card ${card}`);
  }
  add(s.table); add(s.used); add(s.box);
  for (const p of s.players) add(p.hand.ingredients);
  for (const k of C.KINDS) if (kinds[k] !== C.COPIES) throw new BadRequest(`${kinds[k]} ${k} cards, not ${C.COPIES}`);
  if (mammaMia !== 1 && !(s.phase === 'shuffle' && s.resolutions === 0 && mammaMia === 0)) {
    throw new BadRequest('the Mamma Mia! card is not exactly once');
  }
  for (const p of s.players) {
    const seen = p.hand.orders.concat(p.waiter, p.delivered,
      s.oven.filter((c) => C.isOrder(c) && C.orderColour(c) === p.colour),
      s.reveal && C.orderColour(s.reveal.order) === p.colour ? [s.reveal.order] : []);
    const want = C.colourOrders(p.colour);
    if (seen.length !== want.length || !want.every((o) => seen.includes(o))) {
      throw new BadRequest(`the orders of ${p.colour} do not add up`);
    }
  }
  settleResult(s, doc.result);
  return s;
}

/** A finished game carries its result; a given result must be the one its cards give. */
function settleResult(s, given) {
  if (s.phase !== 'over') {
    if (given !== undefined) throw new BadRequest('only a finished game carries a result');
    return;
  }
  s.result = require('./scoring').result(s);
  if (given !== undefined && JSON.stringify(canonical(given)) !== JSON.stringify(canonical(s.result))) {
    throw new BadRequest(`the result is not the one the cards give [${s.result.rule}]`);
  }
}

/** Keys sorted at every level, so that two results compare regardless of key order. */
function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
}

module.exports = {
  Rejected, BadRequest, clone, seats, handSize, seatOfColour, ownerOf, sortOrders, fullVariants, fullCounts, loadState,
};
