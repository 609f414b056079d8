// The offline app's game history (app/store.mjs) under Node, against the
// server's (crates/sleuth-web/src/store/history.rs): the scenario of its
// test of turn ids, then random changes checked against an obvious model,
// a list of every state with a cursor (undo moves it back, redo forward, a
// change drops what lies ahead), with ids counted up and never reused.
//   node crates/sleuth-wasm/tests/store.mjs   (run by test.sh)
import { Refused, apply, newGame, plan } from '../app/store.mjs';

function check(cond, message) {
  if (!cond) throw new Error(`check failed: ${message}`);
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const file = { version: 1, deck: 'classic', players: ['a', 'b', 'c'], me: 'a', hand: ['mu', 'pl', 'gr', 'kn', 'ca', 'ha'], events: [] };
const event = (by) => ({ suggestion: { by, cards: ['pe', 're', 'lo'], refuted_by: null } });

/** A change applied as local.mjs applies it (the engine's reading of the file is the file itself here). */
function change(g, c) {
  const planned = plan(g, c);
  return apply(g, c, planned, { ...g.file, events: planned.turns.events }, null, null, 0).game;
}

// ---- the server's scenario (history.rs, turn_ids_are_stable_...)
let g = newGame('g', file, 'G', 0);
for (const by of ['a', 'b', 'c']) g = change(g, { op: 'add', index: null, event: event(by) });
check(same(g.ids, [1, 2, 3]), `ids ${g.ids}`);
g = change(g, { op: 'add', index: 0, event: event('c') });
check(same(g.ids, [4, 1, 2, 3]), `ids ${g.ids}`);
g = change(g, { op: 'edit', turn: 2, event: event('a') });
check(same(g.file.events[2], event('a')), 'the edit');
g = change(g, { op: 'delete', turn: 1 });
check(same(g.ids, [4, 2, 3]), `ids ${g.ids}`);
let refused = null;
try { plan(g, { op: 'delete', turn: 1 }); } catch (e) { refused = e; }
check(refused instanceof Refused && refused.status === 404, 'deleting a deleted turn again names no other turn');
g = change(g, { op: 'undo' });
check(same(g.ids, [4, 1, 2, 3]), `ids ${g.ids}`);
g = change(g, { op: 'undo' });
g = change(g, { op: 'undo' });
g = change(g, { op: 'redo' });
g = change(g, { op: 'delete', turn: 4 });
g = change(g, { op: 'undo' });
g = change(g, { op: 'undo' });
g = change(g, { op: 'add', index: null, event: event('b') });
check(same(g.ids, [1, 2, 3, 5]), `a new turn after an undone add gets a new id: ${g.ids}`);
check(g.version === 14, `version ${g.version}`);

// ---- random changes against the model
let seed = 12345;
const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
for (let run = 0; run < 200; run++) {
  g = newGame('g', file, 'G', 0);
  const states = [{ ids: [], events: [] }];
  let cursor = 0;
  let issued = 0;
  for (let step = 0; step < 60; step++) {
    const now = states[cursor];
    const ops = ['add', 'add', 'undo', 'redo', 'rename'].concat(now.ids.length ? ['edit', 'delete'] : []);
    const op = ops[random(ops.length)];
    const turn = now.ids.length ? now.ids[random(now.ids.length)] : null;
    const by = ['a', 'b', 'c'][random(3)];
    const c = { op, index: random(now.ids.length + 2), event: event(by), turn, name: `G${step}` };
    let want;
    let status = null;
    if (op === 'add' && c.index > now.ids.length) status = 422;
    else if (op === 'undo' && cursor === 0) status = 409;
    else if (op === 'redo' && cursor === states.length - 1) status = 409;
    else if (op === 'add') {
      issued = Math.max(issued, ...states.flatMap((s) => s.ids), 0) + 1;
      want = { ids: [...now.ids], events: [...now.events] };
      want.ids.splice(c.index, 0, issued);
      want.events.splice(c.index, 0, c.event);
    } else if (op === 'edit') {
      want = { ids: now.ids, events: now.events.map((e, i) => (now.ids[i] === turn ? c.event : e)) };
    } else if (op === 'delete') {
      want = { ids: now.ids.filter((t) => t !== turn), events: now.events.filter((_, i) => now.ids[i] !== turn) };
    }
    let got = null;
    try { got = change(g, c); } catch (e) {
      check(e instanceof Refused && e.status === status, `run ${run} step ${step} ${op}: ${e.message}, expected ${status}`);
      continue;
    }
    check(status === null, `run ${run} step ${step} ${op}: applied, expected ${status}`);
    if (op === 'undo') cursor -= 1;
    else if (op === 'redo') cursor += 1;
    else if (op !== 'rename') { states.splice(cursor + 1, states.length, want); cursor += 1; }
    check(same({ ids: got.ids, events: got.file.events }, states[cursor]), `run ${run} step ${step} ${op}: turns ${got.ids}, expected ${states[cursor].ids}`);
    check(got.version === g.version + 1, 'each change makes one version');
    check(got.undo.length === cursor && got.redo.length === states.length - 1 - cursor, `run ${run} step ${step}: undo and redo depths`);
    check(new Set(got.ids).size === got.ids.length, 'ids are unique');
    g = got;
  }
}
console.log('the offline store: the server\'s turn-id scenario and 200 random histories of 60 changes agree with the model');
