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

/**
 * A game's `parameters` as states carry them: checked against PARAMETERS (name, whole
 * number, range; a trimming given for some player counts only keeps the others'
 * defaults), and only those not at their default kept (a trimming whole, "2".."5").
 */
function normalParameters(given) {
  if (given === null || given === undefined) given = {};
  if (typeof given !== 'object' || Array.isArray(given)) throw new BadRequest('parameters is a map of parameter names to numbers');
  const out = {};
  const number = (name, n, where) => {
    const spec = C.PARAMETERS[name];
    if (!Number.isInteger(n) || n < spec.min || n > spec.max) {
      throw new BadRequest(`parameter ${name}${where} must be a whole number from ${spec.min} to ${spec.max} [${spec.rule}]`);
    }
    return n;
  };
  for (const [name, value] of Object.entries(given)) {
    const spec = C.PARAMETERS[name];
    if (!spec) throw new BadRequest(`unknown parameter ${JSON.stringify(name)}`);
    if (!spec.perPlayers) {
      if (number(name, value, '') !== spec.default) out[name] = value;
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new BadRequest(`parameter ${name} is a map from player count to a number`);
    const full = {};
    for (const n of ['2', '3', '4', '5']) full[n] = spec.default[n];
    for (const [players, count] of Object.entries(value)) {
      if (!(players in full)) throw new BadRequest(`parameter ${name} is given by player count, 2 to 5; not ${JSON.stringify(players)}`);
      full[players] = number(name, count, ` for ${players} players`);
    }
    if (Object.keys(full).some((n) => full[n] !== spec.default[n])) out[name] = full;
  }
  return out;
}

/** Every parameter's value in state `s`: its own `parameters`, else the spec's default. */
function params(s) {
  const out = {};
  for (const [name, spec] of Object.entries(C.PARAMETERS)) {
    out[name] = s.parameters && name in s.parameters ? s.parameters[name] : spec.default;
  }
  return out;
}

/** The state's `parameters` key as the canonical form has it: present only when some number differs. */
function setParameters(s, given) {
  const p = normalParameters(given);
  if (Object.keys(p).length > 0) s.parameters = p;
  else delete s.parameters;
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
  setParameters(s, doc.parameters);
  const p0 = params(s);
  // A first hand may start above a lower hand limit (setup.deal, setup.waiter), never grow past it.
  const largest = Math.max(p0.hand_limit, p0.starting_ingredients + p0.starting_orders);
  if (s.round > p0.rounds || s.resolutions > p0.rounds) throw new BadRequest(`a round past the game's ${p0.rounds}`);
  for (const p of s.players) {
    if (!(p.colour in C.PERSONAL)) throw new BadRequest(`unknown colour ${p.colour}`);
    p.hand.ingredients = fullCounts(p.hand.ingredients, 'hand');
    sortOrders(p.hand.orders);
    if (handSize(p) > largest) throw new BadRequest(`a hand of more than ${largest} cards`);
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
  normalParameters, params, setParameters,
};
