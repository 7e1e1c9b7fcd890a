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

/** Apply an action to a copy of `state`: {state, events}, or throws Rejected. */
function apply(state, action) {
  if (action === null || typeof action !== 'object' || typeof action.type !== 'string') {
    throw new S.BadRequest('an action is an object with a type');
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

module.exports = { legalActions, apply, newGame: setup.newGame, loadState: S.loadState };
