'use strict';
// The whole game behind two functions: the legal actions at a state, and the state (and
// events) an action leads to. Each chapter's module handles its own phase.
const S = require('./state');
const setup = require('./setup');
const turn = require('./turn');
const oven = require('./oven');
const round = require('./round');

function legalActions(s) {
  if (s.phase === 'turn') return turn.legalActions(s);
  if (s.phase === 'oven') return oven.legalActions(s);
  return []; // a shuffle (chance) or the end
}

/** The rule of the decision pending: what refuses an action that is not that decision. */
function decisionRule(s) {
  if (s.phase === 'over') return 'game_end.three_resolutions';
  if (s.phase === 'shuffle') return s.resolutions === 0 ? setup.shuffleRule(s) : 'next_round.supply';
  if (s.phase === 'turn') return turn.STEP_RULES[s.step];
  return oven.decisionRule(s);
}

/** Feature seats: an action by a seat that is not to decide is refused before it is read. */
function checkSeat(s, seat) {
  const toMove = s.phase === 'turn' || s.phase === 'oven' ? s.current : null;
  if (seat === toMove) return;
  const rule = s.phase === 'turn' ? 'turn.clockwise' : decisionRule(s);
  throw new S.Rejected(rule, `seat ${seat} is not to decide`);
}

/** Apply an action to a copy of `state`: {state, events}, or throws Rejected. */
function apply(state, action, seat) {
  if (action === null || typeof action !== 'object' || typeof action.type !== 'string') {
    throw new S.BadRequest('an action is an object with a type');
  }
  if (seat !== undefined && seat !== null) {
    if (!Number.isInteger(seat) || seat < 0 || seat >= state.players.length) throw new S.BadRequest('player is a seat');
    checkSeat(state, seat);
  }
  const s = S.clone(state);
  const ev = [];
  if (s.phase === 'over') throw new S.Rejected('game_end.three_resolutions', 'the game is over');
  if (s.phase === 'shuffle') {
    if (s.resolutions === 0) setup.applySetupShuffle(s, action, ev);
    else round.applySupplyShuffle(s, action, ev);
  } else if (s.phase === 'turn') {
    turn.applyTurn(s, action, ev);
  } else {
    oven.applyDecision(s, action, ev);
    round.carryOn(s, ev);
  }
  return { state: s, events: ev };
}

/**
 * The counting-table count (feature perft): distinct legal action sequences of `depth`
 * decisions; a shuffle or the end cuts a sequence short and counts once.
 */
function perft(s, depth) {
  if (depth === 0) return 1;
  const actions = legalActions(s);
  if (actions.length === 0) return 1;
  if (depth === 1) return actions.length;
  let nodes = 0;
  for (const a of actions) nodes += perft(apply(s, a).state, depth - 1);
  return nodes;
}

module.exports = { legalActions, apply, perft, newGame: setup.newGame, loadState: S.loadState };
