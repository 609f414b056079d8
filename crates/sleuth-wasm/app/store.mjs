// The offline app's games, kept in this browser (IndexedDB), with the
// semantics of `sleuth serve`'s store (crates/sleuth-web/src/store): a game
// is a version number, its turns with stable ids (t1, t2, ...: given when a
// turn is added, kept through edits, undo and redo, never given twice), an
// undo and a redo history, and the idempotency keys of the changes that made
// it, so that a change sent twice is stored once. A change is stored only if
// the game is still at the version it was based on (checked and written in
// one transaction): two tabs cannot both change version N.
//
// Whether a game or a turn is valid is the engine's question (local.mjs asks
// it before a change is stored); nothing here knows the rules of Clue.

/** Most events one game may hold (as the server). */
export const MAX_EVENTS = 2000;
/** The longest game name, in characters (as the server). */
export const MAX_NAME = 80;

/** A refused request: the API's status and message; a 409 carries the game as it is. */
export class Refused extends Error {
  constructor(status, message, current) {
    super(message);
    this.status = status;
    this.current = current;
  }
}

/** A game name as stored: trimmed, 1 to MAX_NAME characters, no control characters. */
export function checkName(name) {
  const n = String(name).trim();
  if (!n) throw new Refused(422, 'a game name cannot be empty');
  if ([...n].length > MAX_NAME) throw new Refused(422, `a game name has at most ${MAX_NAME} characters`);
  if (/[\p{Cc}]/u.test(n)) throw new Refused(422, 'a game name cannot hold control characters (tabs, line breaks)');
  return n;
}

/** `t7` as a turn number; null for anything else (`7`, `t07`, `t0`). */
export function parseTurn(s) {
  return /^t[1-9][0-9]*$/.test(s) ? Number(s.slice(1)) : null;
}

/** A new game at version 0, its turns numbered t1, t2, ... */
export function newGame(id, file, name, now) {
  if (file.events.length > MAX_EVENTS) throw new Refused(422, `a game holds at most ${MAX_EVENTS} events`);
  const ids = file.events.map((_, i) => i + 1);
  return { id, name, version: 0, updated: now, created: now, file, ids, nextTurn: ids.length + 1, undo: [], redo: [], keys: {} };
}

function position(g, turn) {
  const i = g.ids.indexOf(turn);
  if (i < 0) throw new Refused(404, `no turn t${turn} in this game (it was deleted, or never was); nothing was changed`);
  return i;
}

/**
 * What `change` ({op: add|edit|delete|undo|redo|rename, ...}) makes of game
 * `g`: {turns: {ids, events}, turn, name} (the turns after it, the turn it
 * names, the new name), or Refused when it does not fit the game. Changes
 * nothing.
 */
export function plan(g, change) {
  let turns = { ids: [...g.ids], events: [...g.file.events] };
  const len = g.ids.length;
  switch (change.op) {
    case 'rename':
      return { turns, turn: null, name: checkName(change.name) };
    case 'add': {
      const index = change.index ?? len;
      if (index > len) throw new Refused(422, `cannot add a turn at position ${index}: the game has ${len} turns; nothing was changed`);
      if (len >= MAX_EVENTS) throw new Refused(422, `a game holds at most ${MAX_EVENTS} events`);
      turns.ids.splice(index, 0, g.nextTurn);
      turns.events.splice(index, 0, change.event);
      return { turns, turn: g.nextTurn, name: g.name };
    }
    case 'edit':
      turns.events[position(g, change.turn)] = change.event;
      return { turns, turn: change.turn, name: g.name };
    case 'delete': {
      const i = position(g, change.turn);
      turns.ids.splice(i, 1);
      turns.events.splice(i, 1);
      return { turns, turn: change.turn, name: g.name };
    }
    case 'undo':
      if (!g.undo.length) throw new Refused(409, 'nothing to undo');
      turns = g.undo[g.undo.length - 1];
      return { turns, turn: null, name: g.name };
    case 'redo':
      if (!g.redo.length) throw new Refused(409, 'nothing to redo');
      turns = g.redo[g.redo.length - 1];
      return { turns, turn: null, name: g.name };
    default:
      throw new Error(`unknown change ${change.op}`);
  }
}

/**
 * Game `g` after the planned change (`file`: the game file after it, as the
 * engine read it): the turns, the undo history, the version, and the key it
 * came with. Answers {game, done}; `g` is left as it was.
 */
export function apply(g, change, planned, file, key, request, now) {
  const next = { ...g, keys: { ...g.keys }, undo: [...g.undo], redo: [...g.redo], name: planned.name };
  if (change.op !== 'rename') {
    const old = { ids: g.ids, events: g.file.events };
    if (change.op === 'undo') { next.undo.pop(); next.redo.push(old); }
    else if (change.op === 'redo') { next.redo.pop(); next.undo.push(old); }
    else { next.undo.push(old); next.redo = []; }
    next.ids = planned.turns.ids;
    next.file = file;
    if (planned.turn !== null) next.nextTurn = Math.max(g.nextTurn, planned.turn + 1);
  }
  next.version = g.version + 1;
  next.updated = now;
  const done = { version: next.version, turn: planned.turn, request: request || '' };
  if (key) next.keys[key] = done;
  return { game: next, done };
}

const done = (req) => new Promise((resolve, reject) => {
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => reject(req.error);
});

/** The games in IndexedDB: `games` (one record per game) and `created` (idempotency key → game). */
export class Store {
  static async open() {
    const req = indexedDB.open('sleuth', 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore('games', { keyPath: 'id' });
      req.result.createObjectStore('created', { keyPath: 'key' });
    };
    const store = new Store();
    store.db = await done(req);
    return store;
  }

  /** Runs `body(stores)` in one transaction; resolves with its answer once the transaction has committed. */
  transaction(names, mode, body) {
    return new Promise((resolve, reject) => {
      const tx = this.db.transaction(names, mode, { durability: 'strict' });
      const stores = Object.fromEntries(names.map((n) => [n, tx.objectStore(n)]));
      let answer;
      let refused = null;
      const abort = (e) => {
        refused = refused || e;
        try { tx.abort(); } catch (_) { /* already aborting (a failed request aborts it) */ }
      };
      Promise.resolve(body(stores, abort)).then((a) => { answer = a; }, abort);
      tx.oncomplete = () => resolve(answer);
      tx.onabort = () => reject(refused || tx.error || new Refused(500, 'the browser did not store the change'));
    });
  }

  async list() {
    return this.transaction(['games'], 'readonly', ({ games }) => done(games.getAll()));
  }

  async get(id) {
    const g = await this.transaction(['games'], 'readonly', ({ games }) => done(games.get(id)));
    if (!g) throw new Refused(404, `no game '${id}'`);
    return g;
  }

  /**
   * Stores a new game made by `make(id)`; with an idempotency `key` once: the
   * same key and `request` again answers the game it made ({id, replayed: true}).
   */
  async create(make, key, request) {
    return this.transaction(['games', 'created'], 'readwrite', async ({ games, created }, refuse) => {
      if (key) {
        const seen = await done(created.get(key));
        if (seen && seen.request !== request) {
          return refuse(new Refused(422, 'this Idempotency-Key was sent before with another game; send a new key for a new game; nothing was changed'));
        }
        if (seen && await done(games.get(seen.id))) return { id: seen.id, replayed: true };
      }
      let id;
      do { id = newId(); } while (await done(games.get(id)));
      await done(games.add(make(id)));
      if (key) await done(created.put({ key, id, request }));
      return { id, replayed: false };
    });
  }

  /** Stores `g` (version N+1) if the stored game is still at version `basedOn`; else Refused 409 with it. */
  async replace(g, basedOn) {
    return this.transaction(['games'], 'readwrite', async ({ games }, refuse) => {
      const current = await done(games.get(g.id));
      if (!current) return refuse(new Refused(404, `no game '${g.id}' (it was deleted)`));
      if (current.version !== basedOn) return refuse(stale(current, basedOn));
      await done(games.put(g));
    });
  }

  /** Deletes the game if it is at version `basedOn`. */
  async delete(id, basedOn) {
    return this.transaction(['games'], 'readwrite', async ({ games }, refuse) => {
      const current = await done(games.get(id));
      if (!current) return refuse(new Refused(404, `no game '${id}' (it was deleted)`));
      if (current.version !== basedOn) return refuse(stale(current, basedOn));
      await done(games.delete(id));
    });
  }
}

/** The 409 of a change based on another version than the game's. */
export function stale(current, basedOn) {
  return new Refused(409, `the game changed since you loaded it (your version ${basedOn}, now ${current.version}); nothing was changed`, current);
}

/** A fresh game id: `game-` and 12 random hex digits (as the server's). */
function newId() {
  return `game-${[...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
