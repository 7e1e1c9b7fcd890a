'use strict';
// The components (spec/cards.yaml) and the variant flags (spec/disputes.yaml), restated
// as data: a port in another language carries its own copy of these facts.

const KINDS = ['salami', 'pineapple', 'mushroom', 'pepper', 'olive'];
const PERSONAL = { red: 'salami', yellow: 'pineapple', green: 'pepper', brown: 'mushroom', purple: 'olive' };
const COLOURS = ['red', 'yellow', 'green', 'brown', 'purple'];
const COPIES = 13;
const MAMMA_MIA = 'mamma_mia';

// The numbers of the rules a game may set otherwise (spec/cards.yaml, `parameters:`):
// the default, the range a game accepts and the rule each is a number of. A game's
// values come with new_game or a loaded state, in `parameters` (only those not at the
// default; the trimming a map from player count "2".."5").
const PARAMETERS = {
  hand_limit: { default: 7, min: 1, max: 20, rule: 'turn.draw' },
  starting_ingredients: { default: 6, min: 1, max: 13, rule: 'setup.deal' },
  starting_orders: { default: 1, min: 0, max: 8, rule: 'setup.waiter' },
  rounds: { default: 3, min: 1, max: 9, rule: 'game_end.three_resolutions' },
  standard_count: { default: 4, min: 1, max: 13, rule: 'oven.standard' },
  monotoni_count: { default: 6, min: 1, max: 13, rule: 'oven.monotoni' },
  minimale_count: { default: 3, min: 1, max: 13, rule: 'oven.minimale' },
  bombastica_total: { default: 15, min: 1, max: 65, rule: 'oven.bombastica' },
  trimming: { default: { 2: 5, 3: 3, 4: 1, 5: 0 }, min: 0, max: 12, rule: 'setup.trim', perPlayers: true },
};

// Flag -> [default, ...other values], in the order of spec/disputes.yaml.
const VARIANTS = {
  trimming: ['on', 'off'],
  mamma_mia_shuffle: ['after_deal', 'before_deal'],
  refill: ['to_seven', 'as_many_as_played'],
  minimale_lowest: ['eligible_kinds', 'all_kinds'],
  completion: ['optional', 'mandatory'],
  round_end: ['last_card', 'last_ingredient'],
  stall: ['cut', 'letter'],
  final_tie: ['shared', 'seat_order'],
  draw_amount: ['fill', 'any'],
  leftovers: ['oven', 'table'],
  pass_order: ['forbidden', 'allowed'],
  monotoni_kind: ['any_other', 'on_table'],
  bombastica_hand: ['allowed', 'forbidden'],
  oven_memory: ['announced', 'seen'],
  card_counts: ['public', 'hidden'],
  used_pile: ['closed', 'open'],
  draw_piles: ['one', 'both'],
};

/** The eight orders of a colour, in manifest order (the order of an unshuffled waiter). */
function colourOrders(colour) {
  const personal = PERSONAL[colour];
  const keys = KINDS.filter((k) => k !== personal).map((k) => `${k}4`);
  return keys.concat(['one_of_each', 'bombastica', 'monotoni', 'minimale']).map((k) => `${colour}.${k}`);
}

function orderColour(order) { return order.split('.')[0]; }
function orderKey(order) { return order.split('.')[1]; }
function isOrder(card) { return card.includes('.'); }
function isKind(card) { return KINDS.includes(card); }

function emptyCounts() { return { salami: 0, pineapple: 0, mushroom: 0, pepper: 0, olive: 0 }; }
function total(counts) { return KINDS.reduce((s, k) => s + counts[k], 0); }
function countsOf(cards) {
  const c = emptyCounts();
  for (const card of cards) c[card] += 1;
  return c;
}
/** A count map laid out as cards, kind by kind in canonical order. */
function cardsOf(counts) {
  const out = [];
  for (const k of KINDS) for (let i = 0; i < counts[k]; i += 1) out.push(k);
  return out;
}

/**
 * What an order needs, as a count map; `named` is the kind fixed for a Monotoni or
 * Minimale; `p` the game's parameters (S.params). A Bombastica has no recipe (null): it
 * needs a total.
 */
function recipe(order, named, p) {
  const colour = orderColour(order);
  const key = orderKey(order);
  const personal = PERSONAL[colour];
  const need = emptyCounts();
  if (key === 'bombastica') return null;
  if (key === 'one_of_each') { for (const k of KINDS) need[k] = 1; return need; }
  need[personal] = 1;
  if (key === 'monotoni') need[named] += p.monotoni_count;
  else if (key === 'minimale') need[named] += p.minimale_count;
  else need[key.slice(0, -1)] += p.standard_count;
  return need;
}

module.exports = {
  KINDS, PERSONAL, COLOURS, COPIES, PARAMETERS, MAMMA_MIA, VARIANTS, colourOrders, orderColour, orderKey, isOrder, isKind,
  emptyCounts, total, countsOf, cardsOf, recipe,
};
