'use strict';
// The components (spec/cards.yaml) and the variant flags (spec/disputes.yaml), restated
// as data: a port in another language carries its own copy of these facts.

const KINDS = ['salami', 'pineapple', 'mushroom', 'pepper', 'olive'];
const PERSONAL = { red: 'salami', yellow: 'pineapple', green: 'pepper', brown: 'mushroom', purple: 'olive' };
const COLOURS = ['red', 'yellow', 'green', 'brown', 'purple'];
const COPIES = 13;
const TRIMMING = { 2: 5, 3: 3, 4: 1, 5: 0 };
const HAND_LIMIT = 7;
const STARTING_INGREDIENTS = 6;
const ROUNDS = 3;
const BOMBASTICA_TOTAL = 15;
const MAMMA_MIA = 'mamma_mia';

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
 * Minimale. A Bombastica has no recipe (null): it needs a total.
 */
function recipe(order, named) {
  const colour = orderColour(order);
  const key = orderKey(order);
  const personal = PERSONAL[colour];
  const need = emptyCounts();
  if (key === 'bombastica') return null;
  if (key === 'one_of_each') { for (const k of KINDS) need[k] = 1; return need; }
  need[personal] = 1;
  if (key === 'monotoni') need[named] += 6;
  else if (key === 'minimale') need[named] += 3;
  else need[key.slice(0, -1)] += 4;
  return need;
}

module.exports = {
  KINDS, PERSONAL, COLOURS, COPIES, TRIMMING, HAND_LIMIT, STARTING_INGREDIENTS, ROUNDS,
  BOMBASTICA_TOTAL, MAMMA_MIA, VARIANTS, colourOrders, orderColour, orderKey, isOrder, isKind,
  emptyCounts, total, countsOf, cardsOf, recipe,
};
