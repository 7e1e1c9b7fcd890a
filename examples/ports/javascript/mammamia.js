#!/usr/bin/env node
'use strict';
// A port of Mamma Mia! speaking mammamia-protocol/4 (docs/porting.md): one JSON request
// per line on stdin, one answer per line on stdout. Node standard library only.
const readline = require('readline');
const game = require('./lib/game');
const { observation } = require('./lib/observation');
const { VARIANTS, PARAMETERS } = require('./lib/cards');
const S = require('./lib/state');

const PROTOCOL = 'mammamia-protocol/4';
let current = null;

function needGame() {
  if (current === null) throw new S.BadRequest('no game yet: send new_game or load_state');
  return current;
}

const OPS = {
  hello(req) {
    if (req.protocol !== PROTOCOL) throw new S.BadRequest(`this program speaks ${PROTOCOL}`);
    return {
      name: 'mammamia-js', language: 'JavaScript', version: '0.1.0', protocol: PROTOCOL,
      variants: VARIANTS, parameters: Object.keys(PARAMETERS), features: ['load_state', 'events', 'observation', 'seats', 'perft'],
    };
  },
  new_game(req) {
    current = game.newGame(req.players, req.colours, req.first_player, req.variants, req.parameters);
    return { state: current };
  },
  load_state(req) {
    current = game.loadState(req.state);
    return { state: current };
  },
  legal_actions() { return { actions: game.legalActions(needGame()) }; },
  apply(req) {
    try {
      const r = game.apply(needGame(), req.action, req.player);
      current = r.state;
      return r;
    } catch (e) {
      if (e instanceof S.Rejected) return { rejected: { rule: e.rule, message: e.message } };
      throw e;
    }
  },
  state() { return { state: needGame() }; },
  observation(req) {
    const s = needGame();
    const p = req.player;
    if (p !== null && !(Number.isInteger(p) && p >= 0 && p < s.players.length)) throw new S.BadRequest('player is a seat or null');
    return { observation: observation(s, p) };
  },
  perft(req) {
    if (!Number.isInteger(req.depth) || req.depth < 0) throw new S.BadRequest('depth is a whole number from 0');
    return { nodes: game.perft(needGame(), req.depth) };
  },
  stop() { return {}; },
};

/** The answer to one request line, and whether the program should then stop. */
function answer(line) {
  let req;
  try { req = JSON.parse(line); } catch (e) { return [{ id: null, ok: false, error: { message: 'invalid JSON' } }, false]; }
  const id = req && typeof req === 'object' ? req.id : null;
  const op = req && typeof req.op === 'string' && Object.hasOwn(OPS, req.op) ? OPS[req.op] : null;
  if (!op) return [{ id, ok: false, error: { message: `unknown op ${JSON.stringify(req && req.op)}` } }, false];
  try {
    return [{ id, ok: true, ...op(req) }, req.op === 'stop'];
  } catch (e) {
    const message = e instanceof S.BadRequest ? e.message : `internal error: ${e.stack}`;
    return [{ id, ok: false, error: { message } }, false];
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  const [out, stop] = answer(line);
  if (!stop) { process.stdout.write(`${JSON.stringify(out)}\n`); return; }
  rl.close();
  process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0)); // exit once the answer is out
});
