'use strict';
// Chapter "Setup" (setup.*, mamma_mia.dealt): the trimmed deck, the deal, the supply and
// the waiters. Every shuffle is an input: the state waits at a chance node naming the pile.
const C = require('./cards');
const S = require('./state');

/** A new game at its first chance node: the trimmed deck lies in canonical order, undealt. */
function newGame(players, colours, firstPlayer, variants, parameters) {
  if (!Number.isInteger(players) || players < 2 || players > 5) throw new S.BadRequest('players is 2 to 5');
  if (colours === null || colours === undefined) colours = C.COLOURS.slice(0, players);
  if (!Array.isArray(colours) || colours.length !== players || new Set(colours).size !== players
      || !colours.every((c) => c in C.PERSONAL)) {
    throw new S.BadRequest('colours: one distinct colour per player');
  }
  if (firstPlayer === undefined || firstPlayer === null) firstPlayer = 0;
  if (!Number.isInteger(firstPlayer) || firstPlayer < 0 || firstPlayer >= players) {
    throw new S.BadRequest('first_player is a seat');
  }
  const v = S.fullVariants(variants);
  const given = S.normalParameters(parameters);
  const p = S.params({ parameters: given });
  const trimmed = v.trimming === 'on' ? p.trimming[players] : 0;
  if (trimmed > C.COPIES) throw new S.BadRequest(`trimming removes more than the ${C.COPIES} cards of a kind [setup.trim]`);
  if (players * p.starting_ingredients >= C.KINDS.length * (C.COPIES - trimmed)) {
    throw new S.BadRequest(`the deck cannot deal ${p.starting_ingredients} cards to ${players} players and leave a supply [setup.deal]`);
  }
  const box = C.emptyCounts();
  const deck = C.emptyCounts();
  for (const k of C.KINDS) { box[k] = trimmed; deck[k] = C.COPIES - trimmed; }
  const supply = C.cardsOf(deck);
  if (v.mamma_mia_shuffle === 'before_deal') supply.push(C.MAMMA_MIA);
  const s = {
    format: 'mammamia-state/1',
    players: colours.map((colour) => ({
      colour, hand: { ingredients: C.emptyCounts(), orders: [] }, waiter: C.colourOrders(colour), delivered: [],
    })),
    first_player: firstPlayer,
    variants: v,
    phase: 'shuffle',
    step: 'ingredients',
    current: firstPlayer,
    round: 1,
    resolutions: 0,
    supply,
    oven: [],
    table: C.emptyCounts(),
    used: C.emptyCounts(),
    box,
    mamma_mia: null,
    played: 0,
    quiet_turns: 0,
    reveal: null,
  };
  S.setParameters(s, given);
  return s;
}

/** Whether `order` lists exactly the cards of `pile`, in any order. */
function isShuffleOf(order, pile) {
  if (!Array.isArray(order) || order.length !== pile.length) return false;
  const want = new Map();
  for (const c of pile) want.set(c, (want.get(c) || 0) + 1);
  for (const c of order) {
    const left = want.get(c);
    if (!left) return false;
    want.set(c, left - 1);
  }
  return true;
}

/** Deal the starting ingredients (six unless a house rule says otherwise) to each, one card at a time round the table from the first player (setup.deal). */
function deal(s, deck, ev) {
  const n = S.seats(s);
  const dealtMammaMia = [];
  const dealt = S.params(s).starting_ingredients;
  for (let round = 0; round < dealt; round += 1) {
    for (let i = 0; i < n; i += 1) {
      const seat = (s.first_player + i) % n;
      let card = deck.shift();
      if (card === C.MAMMA_MIA) { // mamma_mia.dealt: laid out, replaced by the next card
        s.mamma_mia = seat;
        dealtMammaMia.push(seat);
        card = deck.shift();
      }
      s.players[seat].hand.ingredients[card] += 1;
    }
  }
  for (const seat of dealtMammaMia) ev.push({ event: 'mamma_mia_dealt', rule: 'mamma_mia.dealt', seat });
  ev.push({ event: 'dealt', rule: 'setup.deal', cards: dealt, players: n });
  return deck;
}

function shuffleIngredients(s, order, ev) {
  const beforeDeal = s.variants.mamma_mia_shuffle === 'before_deal';
  const rule = beforeDeal ? 'setup.supply_before_deal' : 'setup.deal';
  if (!isShuffleOf(order, s.supply)) throw new S.Rejected(rule, 'the order given for ingredients is not a shuffle of its cards');
  s.supply = deal(s, order.slice(), ev);
  if (beforeDeal) {
    s.step = `waiter.${s.players[0].colour}`;
  } else {
    // The undealt cards wait in canonical order with the Mamma Mia! card last.
    s.supply = C.cardsOf(C.countsOf(s.supply)).concat([C.MAMMA_MIA]);
    ev.push({ event: 'mamma_mia_joined_supply', rule: 'setup.supply' });
    s.step = 'supply';
  }
}

function shuffleSupply(s, order) {
  if (!isShuffleOf(order, s.supply)) {
    throw new S.Rejected('setup.supply', 'the order given for supply is not a shuffle of the undealt cards and the Mamma Mia! card');
  }
  s.supply = order.slice();
  s.step = `waiter.${s.players[0].colour}`;
}

/** A waiter shuffled; after the last seat's, everyone takes their top order and play begins. */
function shuffleWaiter(s, colour, order, ev) {
  const seat = S.seatOfColour(s, colour);
  const player = s.players[seat];
  if (!isShuffleOf(order, player.waiter)) {
    throw new S.Rejected('setup.waiter', `the order given for waiter.${colour} is not a shuffle of its orders`);
  }
  player.waiter = order.slice();
  if (seat + 1 < S.seats(s)) {
    s.step = `waiter.${s.players[seat + 1].colour}`;
    return;
  }
  const taken = S.params(s).starting_orders;
  for (const p of s.players) {
    p.hand.orders.push(...p.waiter.splice(0, taken));
    S.sortOrders(p.hand.orders);
  }
  ev.push({ event: 'took_first_orders', rule: 'setup.waiter' });
  require('./turn').beginTurn(s, s.first_player, 'setup.first_player', ev);
}

/** The chance node of the setup: which pile is to be shuffled, and the rule that shuffle follows. */
function shuffleRule(s) {
  if (s.step === 'ingredients') return s.variants.mamma_mia_shuffle === 'before_deal' ? 'setup.supply_before_deal' : 'setup.deal';
  return s.step === 'supply' ? 'setup.supply' : 'setup.waiter';
}

function applySetupShuffle(s, action, ev) {
  const step = s.step;
  const rule = shuffleRule(s);
  if (action.type !== 'shuffle') throw new S.Rejected(rule, `${action.type} is not the decision here (the ${step} pile must be shuffled)`);
  if (action.pile !== step) throw new S.Rejected(rule, `the pile to shuffle is ${step}, not ${action.pile}`);
  if (step === 'ingredients') shuffleIngredients(s, action.order, ev);
  else if (step === 'supply') shuffleSupply(s, action.order);
  else shuffleWaiter(s, step.slice('waiter.'.length), action.order, ev);
}

module.exports = { newGame, isShuffleOf, shuffleRule, applySetupShuffle };
