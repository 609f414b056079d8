// The offline app's backend: the page's requests (`/api/...`, as app.js
// sends them to `sleuth serve`) answered in the browser, with the same
// paths, statuses and JSON as the server (crates/sleuth-web/src/api.rs has
// the table): the games in IndexedDB (store.mjs), the engine (sleuth.wasm)
// in Web Workers (engine.mjs), every game view, analysis, explanation,
// advice, what-if and planned suggestion built by the same Rust code as the
// server's (src/page.rs over sleuth-core's wire::view).
//
// Two engines: a quick one reads and validates games (never long), and one
// runs the counts, which can be cancelled; a change is never held up by a
// count.
import { Engine } from './engine.mjs';
import { Refused, Store, apply, checkName, newGame, parseTurn, plan, stale } from './store.mjs';

/** Opens the games and starts the engines; registers the service worker (offline use). */
export async function open() {
  const backend = new Local(await Store.open());
  registerServiceWorker();
  // Ask the browser to keep the games when space runs short (granted to installed apps).
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  return backend;
}

const now = () => Math.floor(Date.now() / 1000);

/** The name of a game created now without one: "Game 2026-11-24 06:50 UTC", as the server's. */
function defaultName() {
  const stamp = new Date().toISOString(); // 2026-11-24T06:50:12.345Z
  return `Game ${stamp.slice(0, 10)} ${stamp.slice(11, 16)} UTC`;
}

/** A version as sent in If-Match or If-None-Match: "N", W/"N" or N. */
function parseVersion(tag) {
  const t = tag.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  return /^[0-9]+$/.test(t) ? Number(t) : null;
}

const header = (headers, name) => {
  const k = Object.keys(headers).find((h) => h.toLowerCase() === name);
  return k === undefined ? undefined : String(headers[k]);
};

function basedOn(headers) {
  const v = header(headers, 'if-match');
  if (v === undefined) {
    throw new Refused(428, 'a change must say which version of the game it is based on (If-Match: "N", '
      + 'the version the game had when you loaded it); nothing was changed');
  }
  const n = parseVersion(v);
  if (n === null) throw new Refused(400, 'If-Match must be the version of the game a change is based on, such as "3"; nothing was changed');
  return n;
}

function idempotencyKey(headers) {
  const v = header(headers, 'idempotency-key');
  if (v === undefined) return null;
  const text = v.trim();
  const key = text.length > 1 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
  if (key.length >= 1 && key.length <= 128 && /^[!#-~]+$/.test(key)) return key;
  throw new Refused(400, 'Idempotency-Key must be 1 to 128 visible ASCII characters (such as a random UUID); nothing was changed');
}

/** A JSON body with exactly the keys `allowed` (as serde's deny_unknown_fields). */
function bodyWith(body, allowed, required) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Refused(400, 'invalid request body: expected a JSON object');
  const unknown = Object.keys(body).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw new Refused(400, `invalid request body: unknown field \`${unknown}\`, expected one of ${allowed.map((k) => `\`${k}\``).join(', ')}`);
  const missing = required.find((k) => !(k in body));
  if (missing !== undefined) throw new Refused(400, `invalid request body: missing field \`${missing}\``);
  return body;
}

class Local {
  constructor(store) {
    this.store = store;
    this.quick = new Engine({ cancellable: false });
    this.counts = new Engine({ cancellable: true });
    this.cache = new Map(); // `${id} ${version} ${what}` → a reply, as the server caches per version
    this.advising = new Map(); // game id → {version, soFar, failed}: the advice being counted for ?progress
    this.locks = new Map(); // game id → the promise of its last change (one change at a time per game)
  }

  /** Answers one request of the page: {status, data} (data null for 204 and 304). */
  async request(method, path, body, headers = {}) {
    try {
      return await this.route(method, new URL(path, location.href), body === undefined ? undefined : JSON.parse(JSON.stringify(body)), headers);
    } catch (err) {
      const e = err instanceof Refused ? err : failure(err);
      const data = { error: e.message };
      if (e.status === 409 && e.current) data.state = await this.state(e.current);
      return { status: e.status, data };
    }
  }

  async route(method, url, body, headers) {
    const parts = url.pathname.replace(/^.*?\/api\//, '').split('/').map(decodeURIComponent);
    const q = url.searchParams;
    const allow = (...methods) => {
      if (!methods.includes(method)) throw new Refused(405, 'this endpoint does not take that method');
    };
    const [top, id, what, turn] = parts;
    if (top === 'decks' && parts.length === 1) { allow('GET'); return ok(await this.engine(this.quick, { op: 'decks' })); }
    if (top === 'share' && parts.length === 1) {
      throw new Refused(404, 'joining from another device needs `sleuth serve`: this offline app keeps its games on this device (export a game to move it)');
    }
    if ((top === 'analyze' || top === 'evaluate') && parts.length === 1) {
      // The stateless what-if and planned suggestion: the body as the server reads it, by the same code.
      allow('POST');
      const op = top === 'analyze' ? 'what_if' : 'evaluate';
      return ok(await this.engine(this.counts, { op, body: body === undefined ? '' : JSON.stringify(body) }));
    }
    if (top !== 'games' || parts.length > 4) throw new Refused(404, 'no such page or endpoint');
    if (id === undefined || id === '') {
      allow('GET', 'POST');
      return method === 'GET' ? ok(await this.list()) : this.create(q.get('name'), body, headers);
    }
    if (what === undefined) {
      allow('GET', 'PATCH', 'DELETE');
      if (method === 'GET') return this.get(id, headers);
      if (method === 'DELETE') { await this.store.delete(id, basedOn(headers)); return { status: 204, data: null }; }
      const b = bodyWith(body, ['name'], ['name']);
      return this.change(id, headers, { op: 'rename', name: checkName(b.name) });
    }
    const route = turn === undefined ? what : `${what}/`;
    switch (route) {
      case 'export': allow('GET'); return ok(await this.exportText(id));
      case 'events': {
        allow('POST');
        const b = bodyWith(body, ['event', 'index'], ['event']);
        if (b.index !== undefined && b.index !== null && !(Number.isInteger(b.index) && b.index >= 0)) {
          throw new Refused(400, 'invalid request body: index must be a non-negative integer');
        }
        const key = idempotencyKey(headers);
        basedOn(headers);
        if (!key) {
          throw new Refused(400, 'adding a turn needs an Idempotency-Key header (a new random key per turn, the same one when '
            + 'the request is sent again), so that a retry never stores the turn twice; nothing was changed');
        }
        return this.change(id, headers, { op: 'add', index: b.index ?? null, event: await this.event(b.event) });
      }
      case 'events/': {
        allow('PUT', 'DELETE');
        const n = parseTurn(turn);
        if (n === null) {
          throw new Refused(400, `'${turn}' is not a turn id: turns are named by their id ("id": "t7" in the game's state), not by position; nothing was changed`);
        }
        if (method === 'DELETE') return this.change(id, headers, { op: 'delete', turn: n });
        const b = bodyWith(body, ['event'], ['event']);
        return this.change(id, headers, { op: 'edit', turn: n, event: await this.event(b.event) });
      }
      case 'undo': case 'redo': {
        allow('POST');
        if (body !== undefined && !(body && typeof body === 'object' && !Array.isArray(body) && !Object.keys(body).length)) {
          throw new Refused(400, `${what} takes no body (or {}); nothing was changed`);
        }
        return this.change(id, headers, { op: what });
      }
      case 'analysis': allow('GET'); return ok(await this.counted(id, 'analysis', {}));
      case 'why': {
        allow('GET');
        for (const k of ['card', 'place']) if (!q.has(k)) throw new Refused(400, `missing query parameter '${k}'`);
        return ok(await this.counted(id, 'why', { card: q.get('card'), place: q.get('place') }));
      }
      case 'advice': {
        allow('GET');
        const [by, cards] = [q.get('by'), q.get('cards')];
        if (by === null && cards === null) return q.has('progress') ? this.adviceSoFar(id) : ok(await this.counted(id, 'advice', {}));
        if (by === null || cards === null) throw new Refused(400, "give both 'by' and 'cards', or neither");
        return ok(await this.counted(id, 'refutation', { by, cards: cards.split(',').filter((c) => c) }));
      }
      default: throw new Refused(404, 'no such page or endpoint');
    }
  }

  /** The engine's answer to `request`, or Refused with its status and message. */
  async engine(engine, request, tag, onPartial) {
    const reply = await engine.call(request, tag, onPartial);
    if (reply.status !== 200) throw new Refused(reply.status, reply.error);
    if (reply.body && typeof reply.body === 'object' && reply.body.millis === undefined
        && (request.op === 'analysis' || request.op === 'what_if' || (request.op === 'advice' && reply.body.consistent))) {
      reply.body.millis = reply.millis;
    }
    return reply.body;
  }

  /** A game file read and validated by the engine: {view, text}. */
  async read(file) {
    return this.engine(this.quick, { op: 'view', game: JSON.stringify(file) });
  }

  /** An event as a game file reads it (the strict reader: an unknown key is refused). */
  async event(value) {
    return this.engine(this.quick, { op: 'event', event: value });
  }

  /**
   * The game's state as the API sends it: the engine's view, its id, version,
   * name, undo state and turn ids (`read`: the engine's reading of g.file, when the caller has it).
   */
  async state(g, read) {
    const { view } = read || await this.read(g.file);
    view.events.forEach((e, i) => { e.id = `t${g.ids[i]}`; });
    return { ...view, id: g.id, version: g.version, name: g.name, can_undo: g.undo.length > 0, can_redo: g.redo.length > 0 };
  }

  async list() {
    const games = (await this.store.list()).map((g) => ({
      id: g.id, name: g.name, version: g.version, players: g.file.players, me: g.file.me ?? null,
      events: g.file.events.length, updated: g.updated, modified: g.updated,
    }));
    games.sort((a, b) => b.updated - a.updated || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { games, problems: [] };
  }

  async create(nameParam, body, headers) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Refused(400, 'a game file is a JSON object');
    // The engine reads the file as an import (400 for one that does not read, 422 for one that does not validate).
    const { view, text } = await this.read(body);
    const name = nameParam === null ? null : checkName(nameParam);
    const key = idempotencyKey(headers);
    const request = JSON.stringify({ op: 'create', name, game: text });
    const file = view.file;
    newGame('check', file, 'check', 0); // refuses a game too long before anything is stored
    const { id, replayed } = await this.store.create((id) => newGame(id, file, name ?? defaultName(), now()), key, request);
    const state = await this.state(await this.store.get(id));
    state.change = { version: 0, turn: null, replayed };
    return { status: replayed ? 200 : 201, data: state };
  }

  async get(id, headers) {
    const g = await this.store.get(id);
    const tags = (header(headers, 'if-none-match') || '').split(',').filter((t) => t.trim());
    if (tags.some((t) => t.trim() === '*' || parseVersion(t) === g.version)) return { status: 304, data: null };
    return ok(await this.state(g));
  }

  async exportText(id) {
    return (await this.read((await this.store.get(id)).file)).text;
  }

  /** Saves the game file of game `id` as a download, `ID.json` (as the server's Export). */
  async download(id) {
    const text = await this.exportText(id);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    a.download = `${id}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
  }

  /**
   * Applies a change as the server does (api.rs, `change`): a key seen before
   * answers what its first request did; otherwise the change must be based
   * on the current version, fit the game (the engine validates the turns
   * after it) and is stored before it is answered. The answer is the new
   * state with `change`; its analysis follows from GET .../analysis.
   */
  async change(id, headers, change) {
    const version = basedOn(headers);
    const key = idempotencyKey(headers);
    const request = JSON.stringify(change);
    const previous = this.locks.get(id) || Promise.resolve();
    const mine = previous.then(async () => {
      let g = await this.store.get(id);
      const seen = key && g.keys[key];
      let doneBy;
      let read = null; // the engine's reading of the game after the change
      if (seen) {
        if (seen.request !== request) {
          throw new Refused(422, 'this Idempotency-Key was sent before with another change; send a new key for a new change; nothing was changed');
        }
        doneBy = { ...seen, replayed: true };
      } else {
        if (g.version !== version) throw stale(g, version);
        const planned = plan(g, change);
        read = change.op === 'rename' ? null : await this.read({ ...g.file, events: planned.turns.events });
        const next = apply(g, change, planned, read ? read.view.file : g.file, key, request, now());
        await this.store.replace(next.game, g.version);
        g = next.game;
        doneBy = { ...next.done, replayed: false };
      }
      const state = await this.state(g, read);
      state.change = { version: doneBy.version, turn: doneBy.turn === null ? null : `t${doneBy.turn}`, replayed: doneBy.replayed };
      state.analysis = null;
      return { status: 200, data: state };
    });
    this.locks.set(id, mine.catch(() => {}));
    return mine;
  }

  /**
   * `?progress`, as the server answers it: the advice of the current version
   * when counted (200); else the advice so far (202, "partial": true), which
   * the worker posts after each suggestion it evaluates, starting the count
   * when none runs for this version. A failed or cancelled count answers its
   * error once.
   */
  async adviceSoFar(id) {
    const g = await this.store.get(id);
    const cached = this.cache.get(`${id} ${g.version} advice`);
    if (cached) return ok(cached);
    let job = this.advising.get(id);
    if (job && job.version === g.version) {
      if (job.failed) { this.advising.delete(id); throw job.failed; }
      return { status: 202, data: job.soFar };
    }
    // wire::view::AdviceSoFar::started, until the worker's first update.
    const started = { version: g.version, consistent: true, partial: true, models: null, entropy: null, evaluated: 0, shortlisted: 0, suggestions: [] };
    job = { version: g.version, soFar: started };
    this.advising.set(id, job);
    this.counted(id, 'advice', { progress: true }, (soFar) => { job.soFar = soFar; }).then(
      () => { if (this.advising.get(id) === job) this.advising.delete(id); },
      (e) => { job.failed = e instanceof Refused ? e : failure(e); });
    return { status: 202, data: started };
  }

  /** A count over the game as it is now (analysis, why, advice, refutation), cached per version. */
  async counted(id, op, args, onPartial) {
    const g = await this.store.get(id);
    const cacheKey = `${id} ${g.version} ${op}`;
    const cacheable = op === 'analysis' || op === 'advice';
    if (cacheable && this.cache.has(cacheKey)) return this.cache.get(cacheKey);
    const body = await this.engine(this.counts, { op, game: JSON.stringify(g.file), version: g.version, ...args }, { game: id, version: g.version }, onPartial);
    if (cacheable) {
      for (const k of this.cache.keys()) if (k.startsWith(`${id} `) && k.endsWith(` ${op}`)) this.cache.delete(k);
      this.cache.set(cacheKey, body);
    }
    return body;
  }
}

const ok = (data) => ({ status: 200, data });

/** What the browser's storage failed at, as the server words a full disk or a failed write. */
function failure(e) {
  if (e && e.name === 'QuotaExceededError') {
    return new Refused(507, "this browser's storage for Sleuth is full: nothing was stored (export and delete old games)");
  }
  return new Refused(500, `this browser could not read or store the game: ${e && e.message ? e.message : e}; nothing was changed`);
}

/**
 * The service worker (sw.js) keeps every file of the app, so that it opens
 * with no network. A new version is installed in the background and waits;
 * the page offers to reload into it (never in the middle of a turn unasked).
 */
function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('sw.js').then((reg) => {
    const offer = (worker) => {
      if (!worker || !navigator.serviceWorker.controller) return; // the first install: nothing to replace
      const bar = document.createElement('div');
      bar.id = 'update';
      bar.setAttribute('role', 'status');
      bar.style.cssText = 'position:fixed;bottom:0;left:0;right:0;z-index:100;display:flex;gap:1em;align-items:center;'
        + 'justify-content:center;padding:.5em;background:#e8f0ff;border-top:1px solid #7a9ad0;color:#222';
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Reload';
      button.addEventListener('click', () => worker.postMessage('activate'));
      bar.append('A new version of Sleuth is ready.', button);
      document.body.append(bar);
    };
    const installing = (worker) => {
      worker.addEventListener('statechange', () => { if (worker.state === 'installed') offer(worker); });
    };
    if (reg.waiting) offer(reg.waiting);
    else if (reg.installing) installing(reg.installing); // found before this page listened
    reg.addEventListener('updatefound', () => installing(reg.installing));
  }).catch(() => { /* no service worker (a private window): the app works while online */ });
  // The page reloads into a new version once the player asked for it (a
  // page the service worker did not load yet has nothing to replace).
  const replacing = Boolean(navigator.serviceWorker.controller);
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading || !replacing) return;
    reloading = true;
    location.reload();
  });
}
