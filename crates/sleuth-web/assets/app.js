// Sleuth notepad: a single page over the JSON API of `sleuth serve`.
// No framework and no build step. Every text from the user or the server
// goes into the page as text nodes, never as HTML.
'use strict';

const $ = (id) => document.getElementById(id);
const TOKEN = new URLSearchParams(location.search).get('token');
/** How often an open game asks the server whether another tab changed it. */
const POLL_MS = 2000;
/**
 * How long the change buttons stay disabled after a change is answered: the
 * second tap of a double tap comes after the page has redrawn, and would
 * land on whatever button is now under the finger (another turn's Delete).
 */
const SETTLE_MS = 450;

/** Builds an element: h('td', {class: 'x', onclick: f}, 'text', child). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** Replaces the children of `el`, skipping null and undefined (replaceChildren would print "null"). */
function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

/** Shows a message in the box that stays at the top of the screen (empty: hides it). */
function showError(message) {
  const box = $('error');
  $('error-text').textContent = message;
  box.classList.toggle('hidden', !message);
}

/** Scrolls a box into view, gives it the focus (it has tabindex=-1) and so has it announced. */
function focusBox(box) {
  box.scrollIntoView({ block: 'nearest' });
  box.focus({ preventScroll: true });
}

/** A non-2xx answer: its status and its JSON body (the 409's body carries the current state). */
class ApiError extends Error {
  constructor(status, data, message) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

/**
 * A new idempotency key: 128 random bits in hex. (crypto.randomUUID exists
 * only on secure origins, and a phone opens http://192.168.x.x.)
 */
function newKey() {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Where the games live. Served by `sleuth serve`: its HTTP API (several
 * devices on one game). Built as the offline app (crates/sleuth-wasm/build.sh
 * writes <meta name="sleuth-backend" content="local"> into the page):
 * local.mjs, which answers the same requests with the same JSON from the
 * games in this browser and the engine in a Web Worker.
 */
const LOCAL = document.querySelector('meta[name="sleuth-backend"]')?.content === 'local';
let local = null; // the offline app's backend, once loaded (start)

/** Calls the API; answers the JSON body (null for 204 and 304); throws ApiError on a non-2xx answer. */
async function api(method, path, body, extraHeaders) {
  const headers = { ...(extraHeaders || {}) };
  let status, statusText = '', data = null;
  if (local) {
    ({ status, data } = await local.request(method, path, body, headers));
  } else {
    if (method !== 'GET') headers['Content-Type'] = 'application/json';
    if (TOKEN) headers['X-Sleuth-Token'] = TOKEN;
    const res = await fetch(path, { method, headers, cache: 'no-store', body: body === undefined ? undefined : JSON.stringify(body) });
    ({ status, statusText } = res);
    if (status !== 304 && status !== 204) try { data = await res.json(); } catch (_) { /* not JSON */ }
  }
  if (status === 304 || status === 204) return null;
  if (status < 200 || status > 299) throw new ApiError(status, data, (data && data.error) || `${status} ${statusText}`);
  return data;
}

const ifMatch = (version) => ({ 'If-Match': `"${version}"` });

const state = {
  decks: null,     // {classic: [...], master: [...]}
  game: null,      // the game state from the API
  analysis: null,
  editing: null,   // {id, index, version}: the turn being edited, and the version it was shown at
  unsent: null,    // {request, key, version}: a change whose answer never came; sent again, it keeps its key
  pending: false,  // a change is in flight: no other change is sent meanwhile
  settling: false, // a change was just answered: the change buttons are still disabled
  settleToken: 0,
  polling: false,
  sizesEdited: false,
  whatIf: null,    // {facts, events, label, version, analysis}: the notepad shown is a what-if, not the game
  deleted: null,   // {index, text, version}: the turn this page deleted, shown in its place until the next change
};

// ---------------------------------------------------------------- routing

function route() {
  showError('');
  const m = location.hash.match(/^#\/game\/([A-Za-z0-9_-]+)$/);
  for (const v of ['view-list', 'view-setup', 'view-game']) $(v).classList.add('hidden');
  $('export').classList.add('hidden');
  $('turn-bar').classList.add('hidden');
  document.body.classList.remove('in-game');
  $('undo').disabled = $('redo').disabled = true;
  for (const b of ['undo', 'redo', 'hide']) $(b).classList.add('hidden'); // only a game has something to undo or hide
  setPrivate(false);
  state.whatIf = null;
  state.game = null;
  state.analysis = null;
  document.title = 'Sleuth notepad';
  if (m) return openGame(m[1]);
  if (location.hash === '#/new') return showSetup();
  return showList();
}

// ---------------------------------------------------------------- the list of games

async function showList() {
  $('view-list').classList.remove('hidden');
  const list = $('game-list');
  list.replaceChildren();
  let games, problems;
  try {
    ({ games, problems } = await api('GET', '/api/games'));
  } catch (e) { showError(e.message); return; }
  // Damage the server found in its data folder: said, never hidden.
  if (problems && problems.length) showError(`The server found damaged data: ${problems.join(' · ')}`);
  if (!games.length) list.append(h('li', { class: 'muted' }, 'No games yet.'));
  for (const g of games) list.append(gameItem(g));
}

/** One game of the list: its name (a link), what it is, and rename and delete in place. */
function gameItem(g) {
  const li = h('li', { 'data-id': g.id });
  const when = g.updated ?? g.modified;
  const whenText = when === undefined ? '' : `, ${new Date(typeof when === 'number' ? when * 1000 : when).toLocaleString()}`;
  const plain = () => fill(li,
    h('a', { href: `#/game/${g.id}`, class: 'game-name' }, g.name || g.id),
    h('span', { class: 'muted game-meta' }, `${(g.players || []).join(' ')}${g.me ? ' (me: ' + g.me + ')' : ''} · ${g.events} turns${whenText}`),
    g.damaged ? h('span', { class: 'game-damaged', role: 'note' }, `Damaged, read-only: ${g.damaged}`) : null,
    h('span', { class: 'game-actions' },
      h('button', { type: 'button', class: 'small rename', onclick: renaming }, 'Rename'),
      h('button', { type: 'button', class: 'small delete', onclick: deleting }, 'Delete')));
  // Rename and delete need the version the change is based on.
  const version = async () => g.version ?? (await api('GET', `/api/games/${g.id}`)).version;
  const refused = (e) => { showError(e.status === 409 ? `Nothing was changed: ${e.message}` : e.message); showList(); };
  function renaming() {
    const input = h('input', { class: 'rename-input', value: g.name || '', maxlength: 80, 'aria-label': 'new name' });
    const form = h('form', { class: 'row rename-form', onsubmit: async (ev) => {
      ev.preventDefault();
      const button = form.querySelector('button[type=submit]');
      if (button.disabled) return;
      button.disabled = true;
      try {
        await api('PATCH', `/api/games/${g.id}`, { name: input.value.trim() }, ifMatch(await version()));
        showError('');
        showList();
      } catch (e) { button.disabled = false; refused(e); }
    } }, input, h('button', { type: 'submit', class: 'small primary' }, 'Save name'),
    h('button', { type: 'button', class: 'small', onclick: plain }, 'Cancel'));
    fill(li, form);
    input.focus();
    input.select();
  }
  function deleting() {
    const yes = h('button', { type: 'button', class: 'small danger confirm-delete', onclick: async () => {
      if (yes.disabled) return;
      yes.disabled = true;
      try {
        await api('DELETE', `/api/games/${g.id}`, undefined, ifMatch(await version()));
        showError('');
        showList();
      } catch (e) { yes.disabled = false; refused(e); }
    } }, 'Delete it');
    fill(li, h('span', { role: 'alert' }, `Delete "${g.name || g.id}" and its ${g.events} turns? This cannot be undone.`),
      h('span', { class: 'game-actions' }, yes, h('button', { type: 'button', class: 'small', onclick: plain }, 'Keep it')));
    yes.focus();
  }
  plain();
  return li;
}

// ---------------------------------------------------------------- joining from a phone

async function toggleShare() {
  const box = $('share');
  if (!box.classList.contains('hidden')) { box.classList.add('hidden'); return; }
  box.classList.remove('hidden');
  const body = $('share-body');
  fill(body, h('p', { class: 'muted' }, 'Asking the server for its addresses…'));
  let s;
  try { s = await api('GET', '/api/share'); } catch (e) { fill(body, h('p', {}, e.message)); return; }
  const urls = s.urls || [];
  if (s.lan && urls.length) {
    // The server's SVG goes in as an image, never as markup in the page.
    const qr = s.qr_svg ? h('img', { id: 'share-qr', alt: `QR code of ${urls[0]}`, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(s.qr_svg)}` }) : null;
    fill(body, h('p', {}, 'Scan this with the phone\'s camera (same Wi-Fi network); it opens this notepad, with the access token, on the phone:'),
      qr, h('ul', { id: 'share-urls' }, urls.map((u) => h('li', {}, h('a', { href: u }, u)))));
  } else {
    fill(body, h('p', { id: 'share-local' }, h('strong', {}, 'A phone cannot join yet: '),
      `this server listens on ${s.listening || '127.0.0.1'}, which only this computer can reach.`),
    h('p', {}, 'To allow it, restart the server on the local network (only on a network you trust; it then asks for a random access token):'),
    h('pre', { id: 'share-command' }, s.command || 'sleuth serve --listen 0.0.0.0:7878'),
    h('p', {}, 'It prints the addresses a phone can open and a QR code; this panel then shows the same QR code.'));
  }
}

// ---------------------------------------------------------------- setup

function setupDeck() {
  const kind = $('setup-deck').value;
  if (kind !== 'custom') return { spec: kind, cats: state.decks[kind] };
  const cats = [];
  for (const line of $('setup-custom').value.split('\n')) {
    const [name, rest] = line.split(':');
    if (!rest) continue;
    const ids = rest.split(/[\s,]+/).filter(Boolean);
    cats.push({ name: name.trim(), cards: ids.map((id) => ({ id, name: id })) });
  }
  return { spec: { categories: cats.map((c) => ({ name: c.name, cards: c.cards.map((x) => x.id) })) }, cats };
}

function setupPlayers() {
  return $('setup-players').value.split(/[\s,]+/).filter(Boolean);
}

function chips(box, name, cats, keep) {
  const checked = new Set([...box.querySelectorAll('input:checked')].map((i) => i.value));
  box.replaceChildren();
  for (const cat of cats) {
    const group = h('div', { class: 'chip-group' }, h('span', { class: 'muted' }, cat.name));
    for (const c of cat.cards) {
      const input = h('input', { type: 'checkbox', name, value: c.id, onchange: renderSetupSizes });
      input.checked = keep && checked.has(c.id);
      group.append(h('label', { class: 'chip', title: c.id }, input, c.name, c.name === c.id ? null : h('span', { class: 'code' }, c.id)));
    }
    box.append(group);
  }
}

function renderSetup() {
  const { cats } = setupDeck();
  $('setup-custom-label').classList.toggle('hidden', $('setup-deck').value !== 'custom');
  chips($('setup-hand'), 'hand', cats, true);
  chips($('setup-faceup'), 'faceup', cats, true);
  const players = setupPlayers();
  const me = $('setup-me');
  const old = me.value;
  me.replaceChildren(h('option', { value: '' }, '(bystander: no hand)'), ...players.map((p) => h('option', { value: p }, p)));
  me.value = players.includes(old) ? old : (players[0] || '');
  state.sizesEdited = false;
  renderSetupSizes();
}

/** Hand sizes by the dealing rule: one card at a time from the first seat. */
function renderSetupSizes() {
  const { cats } = setupDeck();
  const players = setupPlayers();
  const total = cats.reduce((n, c) => n + c.cards.length, 0);
  const faceUp = $('setup-faceup').querySelectorAll('input:checked').length;
  const dealt = Math.max(0, total - cats.length - faceUp);
  const box = $('setup-sizes');
  const old = Object.fromEntries([...box.querySelectorAll('input')].map((i) => [i.dataset.player, i.value]));
  box.replaceChildren();
  players.forEach((p, i) => {
    const rule = players.length ? Math.floor(dealt / players.length) + (i < dealt % players.length ? 1 : 0) : 0;
    const value = state.sizesEdited && old[p] !== undefined ? old[p] : rule;
    const input = h('input', { type: 'number', min: 0, max: 64, value, 'data-player': p, id: `setup-size-${i}`,
      oninput: () => { state.sizesEdited = true; } });
    box.append(h('label', { class: 'size' }, p, input));
  });
}

/** A new game starts from a clean form: nothing of the last game's players, hand or face-up cards. */
async function showSetup() {
  $('view-setup').classList.remove('hidden');
  $('setup').reset();
  for (const box of ['setup-hand', 'setup-faceup', 'setup-sizes']) $(box).replaceChildren();
  $('setup-create').disabled = false;
  renderSetup();
  $('setup-players').focus();
}

async function createGame(ev) {
  ev.preventDefault();
  const button = $('setup-create');
  if (button.disabled) return;
  const { spec } = setupDeck();
  const players = setupPlayers();
  const me = $('setup-me').value;
  const checked = (box) => [...box.querySelectorAll('input:checked')].map((i) => i.value);
  const sizes = {};
  for (const input of $('setup-sizes').querySelectorAll('input')) sizes[input.dataset.player] = Number(input.value);
  const file = { version: 1, deck: spec, players, hand_sizes: sizes, face_up: checked($('setup-faceup')), events: [] };
  if (me) { file.me = me; file.hand = checked($('setup-hand')); }
  const name = $('setup-name').value.trim();
  button.disabled = true;
  try {
    const game = await createOnce(`/api/games${name ? '?name=' + encodeURIComponent(name) : ''}`, file);
    if (game) location.hash = `#/game/${game.id}`;
  } finally { button.disabled = false; }
}

/**
 * Creates a game with an idempotency key, so that a retry (the network
 * failed, or the same game is sent again after the page said so) never
 * makes two. Answers the game, or null after saying what went wrong.
 */
async function createOnce(path, file) {
  const unsent = unsentFor(`create ${path} ${JSON.stringify(file)}`);
  try {
    const game = await sendKept('POST', path, file, {}, unsent.key);
    state.unsent = null;
    return game;
  } catch (e) {
    if (e instanceof ApiError) state.unsent = null;
    showError(e instanceof ApiError ? e.message : UNREACHABLE);
    return null;
  }
}

async function importGame(ev) {
  const f = ev.target.files[0];
  if (!f) return;
  try {
    const text = await f.text();
    let file;
    try { file = JSON.parse(text); } catch (e) { throw new Error(`${f.name} is not JSON: ${e.message}`); }
    const name = f.name.replace(/\.json$/i, '');
    const game = await createOnce(`/api/games?name=${encodeURIComponent(name)}`, file);
    if (game) location.hash = `#/game/${game.id}`;
  } catch (e) { showError(e.message); }
  ev.target.value = '';
}

// ---------------------------------------------------------------- game

async function openGame(id) {
  try {
    state.game = await api('GET', `/api/games/${id}`);
  } catch (e) { showError(e.message); return; }
  state.editing = null;
  $('view-game').classList.remove('hidden');
  $('export').classList.remove('hidden');
  for (const b of ['undo', 'redo', 'hide']) $(b).classList.remove('hidden');
  $('turn-bar').classList.remove('hidden');
  leaveWhatIf();
  fill($('plan-answer'));
  document.body.classList.add('in-game');
  $('export').href = `/api/games/${id}/export`;
  $('lesson').classList.add('hidden');
  $('why').classList.add('hidden');
  renderTurnForm(true);
  renderGame();
  await refreshAnalysis();
}

const players = () => state.game.file.players;
const me = () => state.game.file.me || null;
const myHand = () => new Set(state.game.file.hand || []);
const cats = () => state.game.deck;

/** A card's name by its id (the id itself for an unknown one). */
function cardName(id) {
  for (const cat of (state.game ? cats() : [])) {
    const c = cat.cards.find((x) => x.id === id);
    if (c) return c.name;
  }
  return id;
}
const cardNames = (ids) => ids.map(cardName).join(', ');
const placeWords = (p) => (p === 'case_file' ? 'the case file' : p);

/** A turn in words, with card names (the server's text has the two-letter codes). */
function describe(spec) {
  const kind = Object.keys(spec)[0];
  const e = spec[kind];
  if (kind === 'accusation') return `${e.by} accused ${cardNames(e.cards)}; ${e.correct ? 'correct' : 'wrong'}`;
  const answer = !e.refuted_by ? 'nobody refuted'
    : e.shown ? `${e.refuted_by} refuted and showed ${cardName(e.shown)}` : `${e.refuted_by} refuted (card not seen)`;
  return `${e.by} suggested ${cardNames(e.cards)}; ${answer}`;
}

/** "turn N: ..." for a turn the server names by its index; turns are numbered from 1. */
function turnLine(e) {
  const spec = state.game && state.game.file.events[e.index];
  return `turn ${e.index + 1}: ${spec ? describe(spec) : e.text}`;
}

/**
 * After a change the server answered with the new state (already on disk)
 * and its analysis, in one response: redraw at once; the advice follows.
 * `before` is the analysis the player saw, for what the change taught.
 */
async function changed(newState, before, label) {
  const a = newState.analysis;
  delete newState.analysis;
  state.game = newState;
  if (a && a.version === newState.version) {
    showAnalysis(a);
  } else {
    renderGame();
    await refreshAnalysis();
  }
  if (label !== undefined) showLesson(label, before, state.analysis);
}

/** The state of the game as another tab or device left it: redraw, and say why. */
async function refreshed(newState, why) {
  state.game = newState;
  if (state.editing !== null) stopEdit();
  renderGame();
  await refreshAnalysis();
  if (why) showError(why);
}

/** How long to wait before each new try of a change whose answer did not come (network down). */
const RETRY_MS = [500, 1500, 3000];

/** What the page says when a change's answer never came. */
const UNREACHABLE = 'Not saved yet: the server cannot be reached (is this device still on the network?). '
  + 'Nothing is lost: send the same change again when the network is back; it is stored once.';

/**
 * The idempotency key of `request` (a string naming it whole): the key of
 * the same request whose answer never came, else a new one. Kept in
 * `state.unsent` until an answer comes.
 */
function unsentFor(request, version) {
  if (!(state.unsent && state.unsent.request === request)) state.unsent = { request, key: newKey(), version };
  return state.unsent;
}

/**
 * Sends a request with its idempotency key, again (same key) when the
 * network fails, a few times; `waiting` is called before each new try.
 * Throws the ApiError of an answer, or the network's error after the last try.
 */
async function sendKept(method, path, body, headers, key, waiting) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api(method, path, body, { ...headers, 'Idempotency-Key': key });
    } catch (e) {
      if (e instanceof ApiError || attempt >= RETRY_MS.length) throw e;
      if (waiting) waiting();
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[attempt]));
    }
  }
}

/**
 * Sends one change, based on the version the player saw (`If-Match`), with
 * an idempotency key. While it is in flight every change button is
 * disabled, so a double tap sends once. When the network fails the same
 * request (same key, same version) is sent again a few times; if the answer
 * still does not come, the page says so and keeps the request: sending the
 * same change again (tapping Add again) reuses its key, so the server stores
 * it once however many copies arrive, and a retry is never taken for another
 * tab's change. A change based on a stale version is refused by the server
 * (409) with the current state, which the page then shows, saying why.
 */
async function change(method, path, body, { version, label, refusedWhy } = {}) {
  if (state.pending || !state.game) return false;
  const g = state.game;
  const before = state.analysis;
  // The same change sent again after its answer was lost keeps its key and the version it was based on.
  const unsent = unsentFor(`${g.id} ${method} ${path} ${JSON.stringify(body)}`, version ?? g.version);
  setPending(true);
  try {
    const s = await sendKept(method, `/api/games/${g.id}${path}`, body, ifMatch(unsent.version), unsent.key,
      () => { $('sync').textContent = 'The server does not answer; trying again…'; });
    state.unsent = null;
    $('sync').textContent = '';
    showError('');
    // A copy of a change the server had stored already (its answer was lost): said, not counted again.
    const replayed = s.change && s.change.replayed;
    await changed(s, before, replayed ? 'Already saved (its first answer was lost): stored once' : label);
    return true;
  } catch (e) {
    if (e instanceof ApiError) state.unsent = null;
    if (!(e instanceof ApiError)) {
      $('sync').textContent = '';
      showError(UNREACHABLE);
    } else if (e.status === 409 && e.data && e.data.state) {
      await refreshed(e.data.state, `Not saved: ${refusedWhy || 'this game was changed elsewhere (another tab or device)'}. `
        + `The page now shows the game as it is; check it and try again. (${e.message})`);
    } else {
      showError(e.message);
    }
    return false;
  } finally {
    setPending(false);
  }
}

/** Disables every button that changes the game while a change is in flight, and a moment longer. */
function setPending(on) {
  state.pending = on;
  state.settling = true;
  document.body.dataset.busy = '1'; // tests wait for this to go
  for (const b of document.querySelectorAll('[data-change]')) b.disabled = true;
  const mine = ++state.settleToken;
  if (on) return;
  setTimeout(() => {
    if (state.pending || mine !== state.settleToken) return;
    state.settling = false;
    document.body.dataset.busy = '';
    for (const b of document.querySelectorAll('[data-change]')) b.disabled = false;
    if (state.game) syncUndo(false);
  }, SETTLE_MS);
}

/** Undo and redo (the header's and the phone bar's) are enabled when there is something to undo or redo. */
function syncUndo(busy) {
  $('undo').disabled = $('bar-undo').disabled = busy || !state.game.can_undo;
  $('redo').disabled = $('bar-redo').disabled = busy || !state.game.can_redo;
}

/** Asks the server whether the game changed (another tab, another device); 304 when not. */
async function poll() {
  const g = state.game;
  if (!g || state.pending || state.polling || document.visibilityState !== 'visible') return;
  state.polling = true;
  try {
    const s = await api('GET', `/api/games/${g.id}`, undefined, { 'If-None-Match': `"${g.version}"` });
    if (s && state.game === g && !state.pending && s.version !== g.version) {
      const editing = state.editing;
      state.game = s;
      renderGame();
      await refreshAnalysis();
      $('sync').textContent = `Updated from another tab or device (version ${s.version}).`;
      if (editing !== null) showError(`This game changed elsewhere while you were editing turn ${editing.index + 1}: `
        + 'saving that edit will be refused; cancel it and edit the turn as it is now.');
    }
  } catch (e) {
    if (e.status === 404 && state.game === g) showError('This game was deleted (in another tab or device).');
  } finally {
    state.polling = false;
  }
}

function renderGame() {
  const g = state.game;
  $('game-name').textContent = g.name || 'Game';
  document.title = `${g.name || 'Game'} · Sleuth notepad`;
  const busy = state.pending || state.settling;
  syncUndo(busy);
  $('turn-title').textContent = state.editing === null ? `New turn (turn ${g.events.length + 1})` : `Edit turn ${state.editing.index + 1}`;
  const list = $('events');
  list.replaceChildren();
  const conflict = new Set((state.analysis && state.analysis.conflict) || []);
  // The turn this page just deleted leaves a line without buttons where it was, so that a
  // second tap where its Delete was, even after the buttons are awake again, deletes nothing.
  const gone = state.deleted && state.deleted.version === g.version ? state.deleted : null;
  const goneLine = gone && h('li', { class: 'deleted muted' }, `Turn ${gone.index + 1} deleted: ${gone.text} (Undo brings it back).`);
  // Newest first, right under the turn form: the turn just entered is in view.
  for (const e of [...g.events].reverse()) {
    if (goneLine && !goneLine.isConnected && e.index < gone.index) list.append(goneLine);
    const editing = state.editing !== null && state.editing.id === e.id;
    list.append(h('li', { 'data-index': e.index, 'data-id': e.id, class: conflict.has(e.index) ? 'conflict' : (editing ? 'editing' : '') },
      h('span', { class: 'turn-no' }, `${e.index + 1}`),
      h('span', { class: 'event-text', title: e.text }, describe(e.event)),
      h('span', { class: 'event-actions' },
        h('button', { type: 'button', class: 'small edit', onclick: () => startEdit(e.id), title: `Edit turn ${e.index + 1}` }, 'Edit'),
        h('button', { type: 'button', class: 'small delete', 'data-change': true, disabled: busy, title: `Delete turn ${e.index + 1}`,
          onclick: () => deleteTurn(e) },
        'Delete'))));
  }
  if (goneLine && !goneLine.isConnected) list.append(goneLine);
  if (!g.events.length) list.append(h('li', { class: 'muted' }, 'No turns yet.'));
  $('events-box').scrollTop = 0;
  renderGameOver();
}

/** Deletes turn `e`, named by its stable id. */
async function deleteTurn(e) {
  const ok = await change('DELETE', `/events/${e.id}`, undefined,
    { label: `Turn ${e.index + 1} deleted`, refusedWhy: `turn ${e.index + 1} was not deleted: the turns changed elsewhere (another tab or device)` });
  if (!ok) return;
  state.deleted = { index: e.index, text: describe(e.event), version: state.game.version };
  renderGame();
}

async function refreshAnalysis() {
  const id = state.game.id;
  try {
    const a = await api('GET', `/api/games/${id}/analysis`);
    if (!state.game || state.game.id !== id || a.version !== state.game.version) return; // stale
    showAnalysis(a);
  } catch (e) { showError(e.message); }
}

/** Draws the notepad and the turns, then asks for the advice without waiting for it. */
function showAnalysis(a) {
  const before = state.analysis;
  state.analysis = a;
  // A what-if is of the turns it was made on: a new turn ends it.
  if (state.whatIf && state.whatIf.version !== a.version) leaveWhatIf();
  renderAnalysis();
  renderGame();
  // A contradiction that this page's change brought in opens in view and takes the focus
  // (another tab's change does not take the focus from what the player is doing here).
  if (!a.consistent && state.pending && (!before || before.consistent)) focusBox($('conflict'));
  refreshAdvice();
}

function percent(p, status) {
  if (status === 'yes') return 'O';
  if (status === 'no') return 'X';
  const v = p * 100;
  if (v < 1) return '<1%';
  if (v > 99) return '>99%';
  return `${Math.round(v)}%`;
}

/** The analysis the notepad shows: the what-if's while there is one, else the game's. */
const shownAnalysis = () => (state.whatIf ? state.whatIf.analysis : state.analysis);

function renderAnalysis() {
  const a = shownAnalysis();
  const table = $('notepad');
  table.replaceChildren();
  table.dataset.version = state.analysis.version; // tests wait for this
  table.dataset.whatIf = state.whatIf ? state.whatIf.serial : '';
  const placeName = (p) => (p === 'case_file' ? 'case file' : p);
  table.append(h('thead', {}, h('tr', {}, h('th', { class: 'card-col' }, 'card'),
    a.places.map((p) => h('th', { class: p === 'case_file' ? 'case' : (p === me() ? 'me' : '') }, placeName(p))))));
  const body = h('tbody', {});
  for (const cat of cats()) {
    body.append(h('tr', { class: 'cat' }, h('th', { colspan: a.places.length + 1 }, cat.name)));
    for (const card of cat.cards) {
      const row = h('tr', {}, h('th', { class: 'card-col', title: card.name }, h('span', { class: 'code' }, card.id), ' ', h('span', { class: 'name' }, card.name)));
      a.places.forEach((place) => {
        const cell = { p: a.probabilities[card.id][place], status: a.status[card.id][place] };
        const td = h('td', { 'data-card': card.id, 'data-place': place, 'data-status': cell.status,
          class: `cell ${cell.status}${place === 'case_file' ? ' case' : ''}`,
          tabindex: cell.status === 'maybe' ? undefined : 0,
          title: `${card.name} at ${placeName(place)}: ${(cell.p * 100).toFixed(2)}%`,
          onclick: () => showWhy(card.id, place, cell.status, td),
          onkeydown: (ev) => { if (ev.key === 'Enter') showWhy(card.id, place, cell.status, td); } },
        a.consistent ? percent(cell.p, cell.status) : '?');
        if (a.consistent && cell.status === 'maybe') {
          // Opaque (mixed with white), so that the sticky case-file column hides what scrolls under it.
          const hue = place === 'case_file' ? [200, 40, 40] : [30, 90, 200];
          const alpha = 0.08 + 0.72 * cell.p;
          td.style.backgroundColor = `rgb(${hue.map((c) => Math.round(255 - alpha * (255 - c))).join(', ')})`;
          if (cell.p > 0.55) td.style.color = '#fff';
        }
        row.append(td);
      });
      body.append(row);
    }
  }
  table.append(body);

  const status = $('status');
  const conflictBox = $('conflict');
  if (a.consistent) {
    const n = BigInt(a.models).toLocaleString('en-US');
    fill(status, h('strong', { id: 'models' }, n), ` consistent deal${a.models === '1' ? '' : 's'} (exact)`,
      state.whatIf ? h('strong', { class: 'what-if-mark' }, ' in the what-if') : null,
      h('span', { class: 'muted' }, ` · analysed in ${a.millis.toFixed(1)} ms`));
    conflictBox.classList.add('hidden');
  } else if (state.whatIf) {
    fill(status, h('strong', { id: 'models' }, '0'), ' consistent deals: no deal fits the what-if, so it cannot be.');
    conflictBox.classList.add('hidden');
  } else {
    fill(status, h('strong', { id: 'models' }, '0'), ' consistent deals');
    fill(conflictBox,
      h('strong', {}, 'Contradiction: no deal fits every turn.'),
      ' These cannot all be true (one of them was probably entered wrong; every turn is kept, so edit or delete the wrong one):',
      h('ul', {}, (a.conflict || []).map((index) => h('li', {}, turnLine({ index }))), a.conflict_hand ? h('li', {}, 'your hand') : null));
    conflictBox.classList.remove('hidden');
  }

  renderCaseFiles(a);
}

/** Runs of at least this many equally likely case files are collapsed into one line. */
const COLLAPSE_AT = 4;

/** A case file's chance, with a second digit for the small ones of the start. */
const casePct = (p) => `${(p * 100).toFixed(p < 0.01 ? 2 : 1)}%`;

/**
 * The possible case files, most likely first; a run of equally likely ones
 * (the same number of deals, exactly) is one line, expandable. The server
 * lists the most likely few: the unlisted ones belong to the last run when
 * their deals add up to exactly that many each (none can have more).
 */
function renderCaseFiles(a) {
  const cf = $('case-files');
  cf.replaceChildren();
  const runs = [];
  for (const f of a.case_file) {
    const last = runs[runs.length - 1];
    if (last && last.models === f.models) last.files.push(f);
    else runs.push({ models: f.models, probability: f.probability, files: [f], more: 0 });
  }
  const unlisted = a.case_file_count === null ? 0 : a.case_file_count - a.case_file.length;
  const last = runs[runs.length - 1];
  if (last && unlisted > 0) {
    const rest = BigInt(a.models) - a.case_file.reduce((n, f) => n + BigInt(f.models), 0n);
    if (rest === BigInt(last.models) * BigInt(unlisted)) last.more = unlisted;
  }
  const item = (f) => h('li', { 'data-cards': f.cards.join(',') }, h('span', { class: 'prob' }, casePct(f.probability)), ' ', cardNames(f.cards));
  for (const run of runs) {
    const n = run.files.length + run.more;
    if (n < COLLAPSE_AT) { cf.append(...run.files.map(item)); continue; }
    cf.append(h('li', { class: 'case-run', 'data-count': n },
      h('details', {}, h('summary', {}, h('span', { class: 'prob' }, casePct(run.probability)), ` ${n} case files, each ${casePct(run.probability)} (tap to list them)`),
        h('ol', {}, run.files.map(item), run.more ? h('li', { class: 'muted' }, `… and ${run.more} more, each as likely (not listed)`) : null))));
  }
  if (unlisted > 0 && !(last && last.more)) cf.append(h('li', { class: 'muted' }, `… and ${unlisted} more`));
  if (a.case_file_count === null) cf.append(h('li', { class: 'muted' }, 'too many to list'));
}

/** A cell as a fact in words: "pe holds Rope", "Rope is not in the case file". */
function fact(card, place, status) {
  const name = cardName(card);
  if (place === 'case_file') return `${name} is ${status === 'yes' ? '' : 'not '}in the case file`;
  return status === 'yes' ? `${place} holds ${name}` : `${place} does not hold ${name}`;
}

/**
 * What a change taught, from the analysis before and after it: the cells
 * that became certain, and the biggest changes of probability.
 */
function lessonOf(before, after) {
  const certain = [];
  const ruledOut = [];
  const moves = [];
  if (!before || !after || before.places.join() !== after.places.join()) return { certain, ruledOut, moves };
  for (const [card, row] of Object.entries(after.status)) {
    const old = before.status[card];
    if (!old) continue;
    after.places.forEach((place) => {
      const [was, now] = [old[place], row[place]];
      const [from, to] = [before.probabilities[card][place], after.probabilities[card][place]];
      if (was === 'maybe' && now === 'yes') certain.push(fact(card, place, 'yes'));
      else if (was === 'maybe' && now === 'no') ruledOut.push(fact(card, place, 'no'));
      else if (now === 'maybe' && Math.abs(to - from) >= 0.005) moves.push({ card, place, from, to });
    });
  }
  moves.sort((x, y) => Math.abs(y.to - y.from) - Math.abs(x.to - x.from));
  return { certain, ruledOut, moves: moves.slice(0, 3) };
}

/** Shows what the change taught right under the turn form, where the player is looking. */
function showLesson(label, before, after) {
  const box = $('lesson');
  const items = [];
  if (after && !after.consistent) {
    items.push(h('li', {}, h('strong', {}, 'The turns now contradict each other: '), 'see the contradiction (it names the turns).'));
  } else if (after && before && before.consistent) {
    const l = lessonOf(before, after);
    if (l.certain.length) items.push(h('li', { class: 'certain' }, h('strong', {}, 'Now certain: '), l.certain.join('; '), '.'));
    if (l.ruledOut.length) {
      const shown = l.ruledOut.slice(0, 4);
      items.push(h('li', { class: 'ruled-out' }, h('strong', {}, 'Ruled out: '), shown.join('; '),
        l.ruledOut.length > shown.length ? ` and ${l.ruledOut.length - shown.length} more` : '', '.'));
    }
    if (l.moves.length) {
      items.push(h('li', { class: 'moves' }, h('strong', {}, 'Biggest changes: '), l.moves.map((m) =>
        `${cardName(m.card)} in ${placeWords(m.place)} ${pct(m.from)} → ${pct(m.to)}`).join('; '), '.'));
    }
    const was = BigInt(before.models);
    const now = BigInt(after.models);
    items.push(h('li', { class: 'muted' }, was === now ? `Still ${now.toLocaleString('en-US')} consistent deals.`
      : `Consistent deals: ${was.toLocaleString('en-US')} → ${now.toLocaleString('en-US')}.`));
    if (!l.certain.length && !l.ruledOut.length && !l.moves.length) items.unshift(h('li', {}, 'Nothing new: every cell is as before.'));
  } else if (after && after.consistent) {
    items.push(h('li', {}, 'The contradiction is gone.'));
  }
  fill(box, h('strong', { class: 'lesson-title' }, `${label}. What it taught:`), h('ul', {}, items),
    h('button', { type: 'button', class: 'small', onclick: () => box.classList.add('hidden') }, 'Hide'));
  box.dataset.version = state.game.version; // tests wait for this
  box.classList.remove('hidden');
  // On a phone (one column, the notepad first) the lesson goes right above the notepad and
  // scrolls to the top of the screen: what the turn taught, then the notepad, where the player looks.
  if (phone()) {
    if (box.nextElementSibling !== $('status')) $('status').before(box);
    if (!after || after.consistent) box.scrollIntoView({ block: 'start' });
    return;
  }
  if (box.previousElementSibling !== $('turn')) $('turn').after(box);
  // The lesson and the newest turn under it in view; a new contradiction has the focus (and the view) already.
  if (!after || after.consistent) {
    box.closest('.col-left').scrollTop = 0; // the form first, when all fits
    const newest = $('events').firstElementChild;
    if (newest) reveal(newest);
    reveal(box);
  }
}

/** One column, the notepad first: the layout of a phone (style.css's breakpoint). */
const phone = () => matchMedia('(max-width: 820px)').matches;

/**
 * Scrolls `el` into view the least: on a desktop only within the turn
 * column (which stays on screen), so that the page itself does not jump.
 */
function reveal(el) {
  const column = el.closest('.col-left');
  if (!column || getComputedStyle(column).position !== 'sticky') { el.scrollIntoView({ block: 'nearest' }); return; }
  const r = el.getBoundingClientRect();
  const c = column.getBoundingClientRect();
  const bottom = Math.min(c.bottom, innerHeight);
  if (r.bottom > bottom) column.scrollTop += r.bottom - bottom;
  if (r.top < c.top) column.scrollTop -= c.top - r.top;
}

async function showWhy(card, place, status, cell) {
  const box = $('why');
  const close = () => { box.classList.add('hidden'); if (cell && cell.isConnected) cell.focus(); };
  const closeButton = h('button', { type: 'button', class: 'small why-close', onclick: close }, 'Close');
  if (!shownAnalysis().consistent) { box.classList.add('hidden'); return; }
  if (status === 'maybe') { showSuppose(card, place, closeButton); return; }
  if (state.whatIf) {
    fill(box, h('p', {}, `${fact(card, place, status)} in the what-if. Leave the what-if to ask why a cell of the game is certain.`), closeButton);
    box.classList.remove('hidden');
    focusBox(box);
    return;
  }
  box.classList.remove('hidden');
  fill(box, h('span', { class: 'muted' }, 'Looking for the turns that force it…'));
  focusBox(box);
  try {
    const w = await api('GET', `/api/games/${state.game.id}/why?card=${encodeURIComponent(card)}&place=${encodeURIComponent(place)}`);
    const name = `${cardName(card)} (${card})`;
    const where = placeWords(place);
    const r = w.reason;
    if (!r) {
      fill(box, h('p', {}, w.consistent ? `${name} at ${where} is not certain.` : 'Nothing is certain: the turns contradict each other.'), closeButton);
    } else {
      const items = r.events.map((index) => h('li', { 'data-index': index }, turnLine({ index })));
      if (r.hand) items.push(h('li', {}, 'your hand'));
      fill(box, h('strong', { id: 'why-fact' }, `Why ${name} is ${w.status === 'yes' ? '' : 'not '}in ${where}:`),
        items.length ? h('ul', { id: 'why-list' }, items) : h('p', {}, 'the rules alone (deck, hand sizes, face-up cards) force it.'),
        r.minimum ? null : h('p', { class: 'muted' }, 'a minimal set; the search for a smaller one ran out of budget'),
        closeButton);
    }
  } catch (e) { fill(box, h('p', {}, e.message), closeButton); }
  focusBox(box);
}

const pct = (p, digits = 0) => `${(p * 100).toFixed(digits)}%`;
const dealsWord = (n) => (n === 1 ? '1 deal' : `${n} deals`);

// ---------------------------------------------------------------- what-if

/** An open cell: its exact chance, and "suppose it is so / not so" as a what-if. */
function showSuppose(card, place, closeButton) {
  const box = $('why');
  const a = shownAnalysis();
  const name = cardName(card);
  const yes = place === 'case_file' ? `Suppose ${name} is in the case file` : `Suppose ${place} holds ${name}`;
  const no = place === 'case_file' ? `Suppose ${name} is not in the case file` : `Suppose ${place} does not hold ${name}`;
  const suppose = (holds) => enterWhatIf({ facts: [...((state.whatIf && state.whatIf.facts) || []), { card, place, holds }],
    events: (state.whatIf && state.whatIf.events) || [], label: state.whatIf && state.whatIf.label });
  const deals = (n) => BigInt(n).toLocaleString('en-US');
  fill(box, h('p', { id: 'suppose-fact' }, h('strong', {}, `${name} (${card}) in ${placeWords(place)}: ${pct(a.probabilities[card][place], 2)}`),
    ` (${deals(a.models_by_place[card][place])} of ${deals(a.models)} deals${state.whatIf ? ', in the what-if' : ''}).`),
  h('p', { class: 'row' }, h('button', { type: 'button', class: 'suppose-yes', onclick: () => suppose(true) }, yes),
    h('button', { type: 'button', class: 'suppose-no', onclick: () => suppose(false) }, no)),
  h('p', { class: 'muted' }, 'A what-if shows the exact notepad if it were so, without adding a turn.'), closeButton);
  box.classList.remove('hidden');
  focusBox(box);
}

/** A fact supposed, in words. */
const supposed = (f) => fact(f.card, f.place, f.holds ? 'yes' : 'no');

/**
 * Shows the exact notepad of the game with `w.events` added and `w.facts`
 * supposed (the server's stateless analysis; nothing is stored), until the
 * player leaves it or the turns change.
 */
async function enterWhatIf(w) {
  const g = state.game;
  const file = { ...g.file, events: [...g.file.events, ...w.events] };
  let a;
  try {
    a = await api('POST', '/api/analyze', { game: file, suppose: w.facts });
  } catch (e) { showError(e.message); return; }
  if (state.game !== g) return; // the game changed meanwhile
  state.whatIf = { ...w, version: g.version, analysis: a, serial: ((state.whatIf && state.whatIf.serial) || 0) + 1 };
  $('why').classList.add('hidden');
  renderAnalysis();
  renderWhatIf();
  $('what-if-bar').scrollIntoView({ block: 'start' });
  $('what-if').focus({ preventScroll: true });
}

/** The banner of a what-if: what is supposed, what it would make certain, and the way out. */
function renderWhatIf() {
  const w = state.whatIf;
  document.body.classList.toggle('in-what-if', !!w);
  $('what-if').classList.toggle('hidden', !w);
  $('what-if-bar').classList.toggle('hidden', !w);
  if (!w) return;
  const what = [...(w.label ? [w.label] : []), ...w.facts.map(supposed)].join('; and ');
  $('what-if-short').textContent = `What-if: ${what}`;
  const items = [];
  if (!w.analysis.consistent) {
    items.push(h('li', {}, h('strong', {}, 'It cannot be: '), 'no deal fits the turns and the what-if.'));
  } else {
    const l = lessonOf(state.analysis, w.analysis);
    if (l.certain.length) items.push(h('li', {}, h('strong', {}, 'Then certain: '), l.certain.join('; '), '.'));
    if (l.ruledOut.length) {
      const shown = l.ruledOut.slice(0, 6);
      items.push(h('li', {}, h('strong', {}, 'Then ruled out: '), shown.join('; '),
        l.ruledOut.length > shown.length ? ` and ${l.ruledOut.length - shown.length} more` : '', '.'));
    }
    const deals = (n) => BigInt(n).toLocaleString('en-US');
    items.push(h('li', { class: 'muted' }, `Consistent deals: ${deals(state.analysis.models)} → ${deals(w.analysis.models)} (exact).`));
  }
  fill($('what-if-text'), h('strong', {}, 'What-if, not a turn: '), `${what}.`, h('ul', {}, items),
    h('p', { class: 'muted' }, 'The notepad and the case files are as if it were so. Tap an open cell to suppose more.'));
}

/** Back to the game's own notepad. */
function leaveWhatIf() {
  const was = state.whatIf;
  state.whatIf = null;
  renderWhatIf();
  if (was && state.analysis) renderAnalysis();
}

// ---------------------------------------------------------------- planning a suggestion

/** My suggestion of `cards`, answered as `o` (an outcome of the evaluation) says. */
function plannedEvent(cards, o) {
  const s = { by: me(), cards, refuted_by: o.refuter };
  if (o.shown) s.shown = o.shown;
  return { suggestion: s };
}

/** "What would a reply tell me": every answer to a suggestion I plan, its exact chance and what it would teach. */
async function planSuggestion(ev) {
  if (ev) ev.preventDefault();
  const cards = cats().map((_, i) => $(`plan-card-${i}`).value);
  const box = $('plan-answer');
  const g = state.game;
  fill(box, h('p', { class: 'muted' }, 'Counting every answer…'));
  box.dataset.cards = '';
  let s;
  try {
    s = await api('POST', '/api/evaluate', { game: g.file, cards });
  } catch (e) { fill(box, h('p', {}, e.message)); return; }
  if (state.game !== g) return;
  const now = state.entropy === undefined ? '' : ` (now ${state.entropy.toFixed(2)})`;
  fill(box, h('p', {}, h('strong', {}, `If you suggest ${cardNames(cards)}: `),
    `${s.information.toFixed(2)} bits expected; it ends the game with chance ${pct(s.end_probability, 1)}. Each possible answer`
      + ' (a player holding several of the cards shows each alike):'),
  h('ol', { id: 'plan-outcomes' }, s.outcomes.map((o) => {
    const answer = o.refuter ? `${o.refuter} shows ${cardName(o.shown)}` : 'nobody refutes';
    return h('li', { 'data-refuter': o.refuter || '', 'data-shown': o.shown || '' },
      h('span', { class: 'prob' }, pct(o.probability, 1)), ` ${answer}: the case file then ${o.entropy_after.toFixed(2)} bits${now}`,
      o.solves ? h('strong', {}, ', solved') : '', ' ',
      h('button', { type: 'button', class: 'small plan-see', onclick: () => enterWhatIf({ label: `you suggest ${cardNames(cards)} and ${answer}`, facts: [], events: [plannedEvent(cards, o)] }) },
        'See the notepad'));
  })));
  box.dataset.cards = cards.join(','); // tests wait for this
}


/** sleuth-core's advice, asked for after the notepad is drawn (it may take longer). */
async function refreshAdvice() {
  const body = $('advice-body');
  const id = state.game.id;
  const version = state.game.version;
  body.dataset.version = '';
  $('plan').classList.add('hidden');
  const over = gameOver();
  if (over) {
    // No more turns: nothing to advise.
    $('advice-source').textContent = '';
    fill(body, h('p', { id: 'advice-over' }, `The game is over: ${over.by} accused correctly.`));
    body.dataset.version = version;
    return;
  }
  $('advice-source').textContent = '(thinking…)';
  const current = () => state.game && state.game.id === id && state.game.version === version;
  let adv;
  try {
    // The advice so far until it is final: the ranking firms up as each
    // suggestion is evaluated (both backends count it in the background).
    adv = await api('GET', `/api/games/${id}/advice?progress`);
    while (adv.partial) {
      if (!current()) return; // stale: the next refresh asks for its own version
      renderAdviceSoFar(body, adv);
      await new Promise((resolve) => { setTimeout(resolve, ADVICE_POLL_MS); });
      if (!current()) return;
      adv = await api('GET', `/api/games/${id}/advice?progress`);
    }
  } catch (e) {
    if (state.game && state.game.id === id && state.game.version === version) {
      $('advice-source').textContent = '';
      body.replaceChildren(e.message);
      body.dataset.version = version;
    }
    return;
  }
  if (!state.game || state.game.id !== id || adv.version !== state.game.version) return; // stale
  $('advice-source').textContent = adv.millis === undefined ? '' : `(sleuth-core, ${adv.millis.toFixed(0)} ms)`;
  body.replaceChildren();
  body.dataset.version = adv.version; // tests wait for this
  if (!adv.consistent) { body.append(h('p', {}, 'No advice while the turns contradict each other.')); return; }
  state.entropy = adv.entropy;
  const a = adv.accusation;
  if (a.reason === 'out') {
    // Out: no suggestion, no accusation; still answering the others' suggestions.
    body.append(h('p', { id: 'advice-out' }, h('strong', {}, 'You are out: '),
      `your accusation was wrong (${a.rule}). You make no more suggestions or accusations, but you still answer the others' suggestions: `
        + 'ask "Which card to show?" below when one reaches you.'));
    renderOpponents(body, adv);
    return;
  }
  $('plan').classList.remove('hidden');
  const cards = cardNames(a.cards);
  // The exact probability first; then the rule that decided, in words.
  const exact = `exact chance ${pct(a.probability, 1)}`;
  if (a.accuse && a.certain) {
    body.append(h('p', { id: 'advice-accuse', class: 'accuse' }, h('strong', {}, `Accuse now: ${cards} (certain).`)));
  } else if (a.accuse) {
    body.append(h('p', { id: 'advice-accuse', class: 'accuse' }, h('strong', {}, `Accuse now: ${cards}`), `, ${exact}.`));
  } else {
    body.append(h('p', { id: 'advice-accuse' }, `Do not accuse yet: the most likely case file, ${cards}, has ${exact}.`));
  }
  if (!a.certain && a.reason !== 'out') {
    const threat = adv.opponents.some((o) => o.lookahead)
      ? `An opponent can know the case file by the end of its next turn with chance ${pct(a.threat)}`
      : `An opponent knows the case file now with chance ${pct(a.threat)}`;
    body.append(h('p', { id: 'advice-why' }, `Why: ${a.rule}. ${threat}, ${a.threat_basis}.`));
  } else if (a.reason === 'out') {
    body.append(h('p', { id: 'advice-why' }, `Why: ${a.rule}.`));
  }
  if (!(a.accuse && a.certain) && adv.suggestions.length) {
    const basis = !adv.legal ? ''
      : adv.evaluated >= adv.legal ? `; all ${adv.legal} legal suggestions evaluated exactly: the best of all`
        : `; ${adv.evaluated} of the ${adv.legal} legal suggestions evaluated exactly, chosen by a quick estimate`;
    body.append(h('p', { id: 'advice-suggest-basis' }, `Suggest (best first${basis}):`), suggestionList(adv.suggestions));
  }
  renderOpponents(body, adv);
  if (adv.behaviour_hint && !(a.accuse && a.certain)) {
    // A model of how people ask, never a probability of a case file.
    const hint = adv.behaviour_hint;
    const text = hint.cards && hint.habitual.length
      ? `If ${hint.habitual.join(', ')} avoid asking about their own cards, as their questions so far suggest, ${hint.cards.join(', ')} would be the likeliest case file (about ${hint.factor.toFixed(1)} times its exact chance).`
      : 'No opponent\'s questions show that it avoids asking about its own cards, so there is no hint.';
    body.append(h('p', { id: 'advice-hint' }, h('em', {}, 'Behaviour hint (a guess, not a deduction; never used for "accuse now"): '), text));
  }
}

/** How often the page asks for the advice so far while it is counted. */
const ADVICE_POLL_MS = 250;

/**
 * The ranked suggestions, each with its exact numbers and a button to plan
 * it; suggestions with the same answers are one item, "A or B" for either card.
 */
function suggestionList(suggestions) {
  const choices = suggestions.filter((s) => s.same_answers_as == null);
  const either = (s) => s.cards.map((c, i) => [c, ...(s.alternatives?.[i] || [])].map(cardName).join(' or ')).join(', ');
  const list = h('ol', { id: 'advice-suggest' }, choices.map((s) =>
    h('li', { 'data-cards': s.cards.join(',') }, h('strong', {}, either(s)),
      ` — ${s.information.toFixed(2)} bits expected, ends the game with chance ${pct(s.end_probability)} `,
      h('button', { type: 'button', class: 'small plan-this', onclick: () => {
        s.cards.forEach((c, i) => { $(`plan-card-${i}`).value = c; });
        planSuggestion();
      } }, 'Its answers'))));
  if (!choices.some((s) => s.alternatives?.some((a) => a.length))) return list;
  const note = h('p', { class: 'muted', id: 'advice-either' }, '"A or B": either card gives the same answers, as nobody else can show your own cards nor a certain case-file card.');
  return h('div', {}, list, note);
}

/** The advice so far (`"partial": true`): the suggestions evaluated so far, best first. */
function renderAdviceSoFar(body, adv) {
  const progress = adv.shortlisted === 0 ? 'Counting the deals…'
    : adv.evaluated < adv.shortlisted ? `${adv.evaluated} of ${adv.shortlisted} suggestions evaluated…`
      : `All ${adv.shortlisted} suggestions evaluated; the accusation and the opponents' progress follow…`;
  body.replaceChildren(h('p', { id: 'advice-progress' }, progress));
  if (adv.suggestions.length) {
    body.append(h('p', {}, 'Suggest (best so far; each number is exact, the order may still change):'), suggestionList(adv.suggestions));
  }
  body.dataset.evaluated = `${adv.version} ${adv.evaluated}`; // tests watch the ranking firm up
}

/** Every opponent's progress, from the advice. */
function renderOpponents(body, adv) {
  if (adv.opponents.length) {
    const basis = adv.opponents.every((o) => o.exact) ? 'over every consistent deal' : 'estimated from sampled deals';
    body.append(h('p', {}, `Opponents (${basis}; what each can know, worked out exactly):`), h('ul', { id: 'advice-opponents' }, adv.opponents.map((o) =>
      h('li', { 'data-player': o.player }, o.out ? `${o.player}: out (wrong accusation)`
        : `${o.player}: knows the case file now with chance ${pct(o.solved)}`
          + (o.lookahead ? `; can know it by the end of its next turn with chance ${pct(o.threat)}` : '')
          + (o.exact ? ` (exact, over every one of ${dealsWord(o.samples)})`
            : ` (95%: ${pct(o.threat_interval[0])}–${pct(o.threat_interval[1])}, ${dealsWord(o.samples)})`)
          + `; ${o.entropy.toFixed(1)} bits left (${dealsWord(o.entropy_samples)})`))));
  }
}

// ---------------------------------------------------------------- at the table: game over, out, hidden

/** The first correct accusation, `{index, by, cards}`: the game is over after it; else null. */
function gameOver() {
  const i = state.game.file.events.findIndex((e) => e.accusation && e.accusation.correct);
  return i < 0 ? null : { index: i, ...state.game.file.events[i].accusation };
}

/** The players who accused wrongly: they are out (they still answer suggestions). */
function outPlayers() {
  return new Set(state.game.file.events.filter((e) => e.accusation && !e.accusation.correct).map((e) => e.accusation.by));
}

/** After a correct accusation: the game is over, and no turn form (but a turn can still be edited, deleted or undone). */
function renderGameOver() {
  const over = gameOver();
  const box = $('game-over');
  box.classList.toggle('hidden', !over);
  if (over) {
    fill(box, h('strong', {}, `Game over: ${over.by} accused ${cardNames(over.cards)} correctly`), ` (turn ${over.index + 1}).`,
      over.index + 1 < state.game.events.length ? ' The turns after it are kept as entered.' : '');
  }
  $('turn').classList.toggle('hidden', !!over && state.editing === null);
  $('nav-turn').classList.toggle('hidden', !!over);
}

/** Hides (or shows again) everything that tells my cards: one tap, when someone looks over my shoulder. */
function setPrivate(on) {
  document.body.classList.toggle('private', on);
  $('cover').classList.toggle('hidden', !on);
  for (const b of ['hide', 'bar-hide']) {
    $(b).textContent = on ? 'Show' : 'Hide';
    $(b).setAttribute('aria-pressed', on ? 'true' : 'false');
  }
  if (on) $('why').classList.add('hidden');
}

// ---------------------------------------------------------------- turn form

function options(select, values, labels) {
  const old = select.value;
  select.replaceChildren(...values.map((v, i) => h('option', { value: v }, labels ? labels[i] : v)));
  if (values.includes(old)) select.value = old;
}

/** The next suggester: after the last event's, in seat order, skipping the players who are out. */
function nextSuggester() {
  const ev = state.game.file.events;
  const ps = players();
  const out = outPlayers();
  let i = ev.length ? ps.indexOf(Object.values(ev[ev.length - 1])[0].by) : -1;
  for (let k = 0; k < ps.length; k++) {
    i = (i + 1) % ps.length;
    if (!out.has(ps[i])) return ps[i];
  }
  return ps[0];
}

const cardLabel = (c) => `${c.id} · ${c.name}`;

function renderTurnForm(reset) {
  options($('turn-by'), players());
  const box = $('turn-cards');
  if (reset || !box.children.length) {
    box.replaceChildren(...cats().map((cat, i) =>
      h('label', {}, cat.name, h('select', { id: `turn-card-${i}`, 'data-category': cat.name, onchange: updateAnswerFields },
        h('option', { value: '' }, '—'), cat.cards.map((c) => h('option', { value: c.id }, cardLabel(c)))))));
    $('turn-by').value = nextSuggester();
    $('turn-kind').value = 'suggestion';
    $('turn-correct').checked = false;
    $('turn-refuted').dataset.init = '';
  }
  // The ask-me form: a suggester and one select per category.
  options($('ask-by'), players().filter((p) => p !== me()));
  $('ask-cards').replaceChildren(...cats().map((cat, i) =>
    h('select', { id: `ask-card-${i}`, 'aria-label': cat.name, onchange: clearAskAnswer },
      cat.cards.map((c) => h('option', { value: c.id }, cardLabel(c))))));
  $('ask').classList.toggle('hidden', !me());
  // The suggestion I plan, to see what each answer would tell me.
  $('plan-cards').replaceChildren(...cats().map((cat, i) =>
    h('select', { id: `plan-card-${i}`, 'aria-label': cat.name }, cat.cards.map((c) => h('option', { value: c.id }, cardLabel(c))))));
  clearAskAnswer();
  updateAnswerFields();
}

function turnCards() {
  return cats().map((_, i) => $(`turn-card-${i}`).value);
}

/**
 * Who can refute, which card can have been shown, and the implied passes.
 * The card shown is asked for only when I saw it: on my suggestion (one of
 * the suggested cards I do not hold, and required) or when I refuted (one
 * of the suggested cards I hold, and required).
 */
function updateAnswerFields() {
  const kind = $('turn-kind').value;
  $('turn-suggestion-answer').classList.toggle('hidden', kind !== 'suggestion');
  $('turn-accusation-answer').classList.toggle('hidden', kind !== 'accusation');
  const by = $('turn-by').value;
  const order = [];
  const i = players().indexOf(by);
  for (let k = 1; k < players().length; k++) order.push(players()[(i + k) % players().length]);
  const refuted = $('turn-refuted');
  const oldRef = refuted.value;
  options(refuted, ['', ...order], ['nobody', ...order.map((p) => (p === me() ? `${p} (me)` : p))]);
  refuted.value = order.includes(oldRef) || oldRef === '' ? oldRef : (order[0] || '');
  if (refuted.dataset.init !== '1' && order.length) { refuted.value = order[0]; refuted.dataset.init = '1'; }
  const r = refuted.value;
  const mine = myHand();
  const iSuggested = me() && by === me();
  const iRefuted = me() && r === me() && by !== me();
  const seen = kind === 'suggestion' && r && (iSuggested || iRefuted);
  $('turn-shown-label').classList.toggle('hidden', !seen);
  const shown = $('turn-shown');
  const chosen = turnCards().filter(Boolean);
  if (chosen.length < cats().length) shown.dataset.picked = '';
  const possible = chosen.filter((c) => (iRefuted ? mine.has(c) : !mine.has(c)));
  const hint = iRefuted ? 'choose the card you showed' : 'choose the card you were shown';
  options(shown, ['', ...possible], [chosen.length < cats().length ? 'choose the cards first' : hint,
    ...possible.map((c) => `${c} · ${cardName(c)}`)]);
  // Only the player's own pick, or the one card it can be once all cards are chosen: never a leftover.
  const complete = chosen.length === cats().length;
  shown.value = complete && possible.length === 1 ? possible[0] : (possible.includes(shown.dataset.picked) ? shown.dataset.picked : '');
  // Required, but said in the page's words (readTurn) rather than the browser's bubble.
  shown.setAttribute('aria-required', seen ? 'true' : 'false');
  const note = $('turn-shown-note');
  note.textContent = iRefuted && chosen.length === cats().length && !possible.length
    ? 'You hold none of these cards, so you cannot have refuted: choose who did.' : '';
  const passes = kind === 'suggestion' ? (r ? order.slice(0, order.indexOf(r)) : order) : [];
  $('turn-passes').textContent = kind === 'suggestion'
    ? (passes.length ? `Passed (hold none of the cards): ${passes.join(', ')}` : 'Nobody passed.') : '';
}

function readTurn() {
  const kind = $('turn-kind').value;
  const by = $('turn-by').value;
  const cards = turnCards();
  const missing = cats().filter((_, i) => !cards[i]).map((c) => c.name);
  if (missing.length) throw new Error(`choose a card for: ${missing.join(', ')}`);
  if (kind === 'accusation') return { accusation: { by, cards, correct: $('turn-correct').checked } };
  const s = { by, cards, refuted_by: $('turn-refuted').value || null };
  if (!$('turn-shown-label').classList.contains('hidden')) {
    const shown = $('turn-shown').value;
    if (!shown) {
      $('turn-shown').focus({ preventScroll: true });
      throw new Error(s.refuted_by === me()
        ? 'choose the card you showed (you hold at least one of the suggested cards, or you did not refute)'
        : `choose the card ${s.refuted_by} showed you`);
    }
    s.shown = shown;
  }
  return { suggestion: s };
}

async function submitTurn(ev) {
  ev.preventDefault();
  const button = $('turn-submit');
  if (state.pending || button.disabled) return;
  let event;
  try { event = readTurn(); } catch (e) { showError(e.message); return; }
  showError('');
  const editing = state.editing;
  const t0 = performance.now();
  const ok = editing === null
    ? await change('POST', '/events', { event }, { label: `Turn ${state.game.events.length + 1} added: ${describe(event)}`,
      refusedWhy: 'this turn was not added: the game was changed elsewhere (another tab or device) since you loaded it' })
    : await change('PUT', `/events/${editing.id}`, { event }, { version: editing.version, label: `Turn ${editing.index + 1} saved`,
      refusedWhy: `your edit of turn ${editing.index + 1} was not saved: the turns changed since you opened it for editing` });
  if (!ok) return;
  // From the click to the notepad redrawn (saved on disk, analysed, in the
  // page), and to the next frame (when the browser paints it).
  const body = document.body;
  const version = state.game.version;
  body.dataset.updateMs = (performance.now() - t0).toFixed(1);
  body.dataset.updateVersion = version;
  requestAnimationFrame(() => {
    body.dataset.frameMs = (performance.now() - t0).toFixed(1);
    body.dataset.frameVersion = version;
  });
  if (editing !== null) stopEdit();
  resetTurnForm();
  // Ready for the next turn (on a phone, the lesson has the focus: the form is below the notepad),
  // unless a new contradiction has taken the focus.
  if (!state.analysis || state.analysis.consistent) (phone() ? $('lesson') : $('turn-by')).focus({ preventScroll: true });
}

/** An empty form for the next turn, by the next player. */
function resetTurnForm() {
  $('turn-by').value = nextSuggester();
  for (let i = 0; i < cats().length; i++) $(`turn-card-${i}`).value = '';
  $('turn-refuted').dataset.init = '';
  $('turn-shown').dataset.picked = '';
  $('turn-kind').value = 'suggestion';
  $('turn-correct').checked = false;
  updateAnswerFields();
}

function startEdit(id) {
  const index = state.game.events.findIndex((e) => e.id === id);
  if (index < 0) return;
  const spec = state.game.file.events[index];
  const kind = Object.keys(spec)[0];
  const e = spec[kind];
  // The edit is addressed by the version this turn was shown at: if the turns change meanwhile, the save is refused.
  state.editing = { id, index, version: state.game.version };
  $('turn-submit').textContent = 'Save turn';
  $('turn-cancel').classList.remove('hidden');
  $('turn-kind').value = kind;
  $('turn-by').value = e.by;
  cats().forEach((_, i) => { $(`turn-card-${i}`).value = e.cards[i] || ''; });
  updateAnswerFields();
  if (kind === 'suggestion') {
    $('turn-refuted').value = e.refuted_by || '';
    updateAnswerFields();
    $('turn-shown').value = $('turn-shown').dataset.picked = e.shown || '';
  } else {
    $('turn-correct').checked = !!e.correct;
  }
  renderGame();
  $('turn').scrollIntoView({ block: 'nearest' });
  $('turn-by').focus({ preventScroll: true });
}

function stopEdit() {
  state.editing = null;
  $('turn-submit').textContent = 'Add turn';
  $('turn-cancel').classList.add('hidden');
  renderGame();
}

function clearAskAnswer() {
  $('ask-answer').textContent = '';
  $('ask-answer').dataset.card = '';
  $('ask-enter').classList.add('hidden');
}

/** Which card to show; the answer comes with a button that enters that turn in one tap. */
async function askMe(ev) {
  ev.preventDefault();
  const by = $('ask-by').value;
  const cards = cats().map((_, i) => $(`ask-card-${i}`).value);
  const enter = $('ask-enter');
  enter.classList.add('hidden');
  try {
    const s = await api('GET', `/api/games/${state.game.id}/advice?by=${encodeURIComponent(by)}&cards=${encodeURIComponent(cards.join(','))}`);
    $('ask-answer').textContent = s.show ? `Show ${cardName(s.show)} (${s.show}): ${s.reason}.` : `${s.reason}.`;
    $('ask-answer').dataset.card = s.show || '';
    if (s.show) {
      const event = { suggestion: { by, cards, refuted_by: me(), shown: s.show } };
      enter.textContent = `Enter this turn: ${describe(event)}`;
      enter.onclick = async () => {
        const ok = await change('POST', '/events', { event }, { label: `Turn ${state.game.events.length + 1} added`,
          refusedWhy: 'this turn was not added: the game was changed elsewhere (another tab or device)' });
        if (ok) { clearAskAnswer(); resetTurnForm(); }
      };
      enter.classList.remove('hidden');
    }
  } catch (e) { $('ask-answer').textContent = e.message; $('ask-answer').dataset.card = ''; }
}

/** On a phone the turn form is below the notepad: the sticky bar brings it into view. */
function goToTurnForm() {
  $('turn').scrollIntoView({ block: 'start' });
  $('turn-by').focus({ preventScroll: true });
}

// ---------------------------------------------------------------- start

async function start() {
  if (LOCAL) {
    try { local = await (await import('./local.mjs')).open(); } catch (e) { showError(`Sleuth cannot start in this browser: ${e.message}`); return; }
    // The game file comes from this browser's store; joining from another device needs `sleuth serve`.
    $('export').addEventListener('click', (ev) => { ev.preventDefault(); if (state.game) local.download(state.game.id).catch((e) => showError(e.message)); });
    $('nav-share').classList.add('hidden');
  }
  try { state.decks = await api('GET', '/api/decks'); } catch (e) { showError(e.message); return; }
  $('setup').addEventListener('submit', createGame);
  $('setup-deck').addEventListener('change', renderSetup);
  $('setup-custom').addEventListener('input', renderSetup);
  $('setup-players').addEventListener('input', renderSetup);
  $('import').addEventListener('change', importGame);
  $('nav-new').addEventListener('click', () => { location.hash = '#/new'; });
  $('nav-share').addEventListener('click', toggleShare);
  $('share-close').addEventListener('click', () => $('share').classList.add('hidden'));
  $('error-close').addEventListener('click', () => showError(''));
  $('nav-turn').addEventListener('click', goToTurnForm);
  $('list-new').addEventListener('click', () => { location.hash = '#/new'; });
  $('turn').addEventListener('submit', submitTurn);
  $('turn-kind').addEventListener('change', updateAnswerFields);
  $('turn-by').addEventListener('change', updateAnswerFields);
  $('turn-refuted').addEventListener('change', updateAnswerFields);
  $('turn-shown').addEventListener('change', (ev) => { ev.target.dataset.picked = ev.target.value; });
  $('turn-cancel').addEventListener('click', stopEdit);
  $('ask').addEventListener('submit', askMe);
  $('ask-by').addEventListener('change', clearAskAnswer);
  const undo = () => change('POST', '/undo', {}, { label: 'Undone', refusedWhy: 'nothing was undone: the game was changed elsewhere (another tab or device)' });
  const redo = () => change('POST', '/redo', {}, { label: 'Redone', refusedWhy: 'nothing was redone: the game was changed elsewhere (another tab or device)' });
  $('undo').addEventListener('click', undo);
  $('bar-undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('bar-redo').addEventListener('click', redo);
  const togglePrivate = () => setPrivate(!document.body.classList.contains('private'));
  $('hide').addEventListener('click', togglePrivate);
  $('bar-hide').addEventListener('click', togglePrivate);
  $('show').addEventListener('click', () => setPrivate(false));
  $('what-if-leave').addEventListener('click', leaveWhatIf);
  $('plan').addEventListener('submit', planSuggestion);
  document.addEventListener('keydown', (ev) => {
    if (!state.game || $('view-game').classList.contains('hidden')) return;
    const mod = ev.ctrlKey || ev.metaKey;
    // Keys are not taps: only a change in flight holds them back.
    if (mod && ev.key === 'z' && !ev.shiftKey) { ev.preventDefault(); if (!state.pending && state.game.can_undo) undo(); }
    if (mod && (ev.key === 'y' || (ev.key === 'z' && ev.shiftKey))) { ev.preventDefault(); if (!state.pending && state.game.can_redo) redo(); }
    if (ev.key === 'Escape' && !$('why').classList.contains('hidden')) $('why').classList.add('hidden');
    else if (ev.key === 'Escape' && state.editing !== null) stopEdit();
    else if (ev.key === 'Escape' && state.whatIf) leaveWhatIf();
  });
  // Other tabs' and devices' changes appear within a poll, while this page is visible.
  setInterval(poll, POLL_MS);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') poll(); });
  window.addEventListener('hashchange', route);
  route();
}

start();
