// Sleuth notepad: a single page over the JSON API of `sleuth serve`.
// No framework and no build step. Every text from the user or the server
// goes into the page as text nodes, never as HTML.
'use strict';

const $ = (id) => document.getElementById(id);
const TOKEN = new URLSearchParams(location.search).get('token');

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
    if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.classList.toggle('hidden', !message);
}

/** Calls the API; throws Error(message) on a non-2xx answer. */
async function api(method, path, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (TOKEN) headers['X-Sleuth-Token'] = TOKEN;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) throw new Error((data && data.error) || `${res.status} ${res.statusText}`);
  return data;
}

const state = {
  decks: null,     // {classic: [...], master: [...]}
  game: null,      // the game state from the API
  analysis: null,
  editing: null,   // index of the event being edited
  sizesEdited: false,
};

// ---------------------------------------------------------------- routing

function route() {
  showError('');
  const m = location.hash.match(/^#\/game\/([A-Za-z0-9_-]+)$/);
  for (const v of ['view-list', 'view-setup', 'view-game']) $(v).classList.add('hidden');
  $('export').classList.add('hidden');
  $('nav-turn').classList.add('hidden');
  $('undo').disabled = $('redo').disabled = true;
  if (m) return openGame(m[1]);
  if (location.hash === '#/new') return showSetup();
  return showList();
}

async function showList() {
  $('view-list').classList.remove('hidden');
  const list = $('game-list');
  list.replaceChildren();
  try {
    const { games } = await api('GET', '/api/games');
    if (!games.length) list.append(h('li', { class: 'muted' }, 'No games yet.'));
    for (const g of games) {
      const when = new Date(g.modified * 1000).toLocaleString();
      list.append(h('li', {}, h('a', { href: `#/game/${g.id}` }, `${g.players.join(' ')}`),
        ` — ${g.me ? 'me: ' + g.me + ', ' : ''}${g.events} turns, ${when}`));
    }
  } catch (e) { showError(e.message); }
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
      group.append(h('label', { class: 'chip', title: c.name }, input, c.id));
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

async function showSetup() {
  $('view-setup').classList.remove('hidden');
  renderSetup();
  $('setup-players').focus();
}

async function createGame(ev) {
  ev.preventDefault();
  const { spec } = setupDeck();
  const players = setupPlayers();
  const me = $('setup-me').value;
  const checked = (box) => [...box.querySelectorAll('input:checked')].map((i) => i.value);
  const sizes = {};
  for (const input of $('setup-sizes').querySelectorAll('input')) sizes[input.dataset.player] = Number(input.value);
  const file = { version: 1, deck: spec, players, hand_sizes: sizes, face_up: checked($('setup-faceup')), events: [] };
  if (me) { file.me = me; file.hand = checked($('setup-hand')); }
  try {
    const game = await api('POST', '/api/games', file);
    location.hash = `#/game/${game.id}`;
  } catch (e) { showError(e.message); }
}

async function importGame(ev) {
  const f = ev.target.files[0];
  if (!f) return;
  try {
    const text = await f.text();
    let file;
    try { file = JSON.parse(text); } catch (e) { throw new Error(`${f.name} is not JSON: ${e.message}`); }
    const game = await api('POST', '/api/games', file);
    location.hash = `#/game/${game.id}`;
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
  $('nav-turn').classList.remove('hidden');
  $('export').href = `/api/games/${id}/export`;
  renderTurnForm(true);
  renderGame();
  await refreshAnalysis();
}

const players = () => state.game.file.players;
const me = () => state.game.file.me || null;
const cats = () => state.game.deck;

/**
 * After a change the server answered with the new state (already on disk)
 * and its analysis, in one response: redraw at once; the advice follows.
 */
async function changed(newState) {
  const a = newState.analysis;
  delete newState.analysis;
  state.game = newState;
  if (a && a.version === newState.version) {
    showAnalysis(a);
  } else {
    renderGame();
    await refreshAnalysis();
  }
}

async function change(method, path, body) {
  try {
    await changed(await api(method, `/api/games/${state.game.id}${path}`, body));
    return true;
  } catch (e) { showError(e.message); return false; }
}

function renderGame() {
  const g = state.game;
  $('undo').disabled = !g.can_undo;
  $('redo').disabled = !g.can_redo;
  const list = $('events');
  list.replaceChildren();
  const conflict = new Set(((state.analysis && state.analysis.conflict) || { events: [] }).events.map((e) => e.index));
  for (const e of g.events) {
    list.append(h('li', { 'data-index': e.index, class: conflict.has(e.index) ? 'conflict' : (state.editing === e.index ? 'editing' : '') },
      h('span', { class: 'event-text' }, e.text),
      h('span', { class: 'event-actions' },
        h('button', { type: 'button', class: 'small edit', onclick: () => startEdit(e.index), title: 'Edit this turn' }, 'Edit'),
        h('button', { type: 'button', class: 'small delete', onclick: () => change('DELETE', `/events/${e.index}`), title: 'Delete this turn' }, 'Delete'))));
  }
  if (!g.events.length) list.append(h('li', { class: 'muted' }, 'No turns yet.'));
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
  state.analysis = a;
  renderAnalysis();
  renderGame();
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

function renderAnalysis() {
  const a = state.analysis;
  const table = $('notepad');
  table.replaceChildren();
  table.dataset.version = a.version; // tests wait for this
  const placeName = (p) => (p === 'case_file' ? 'case file' : p);
  table.append(h('thead', {}, h('tr', {}, h('th', { class: 'card-col' }, 'card'),
    a.places.map((p) => h('th', { class: p === 'case_file' ? 'case' : (p === me() ? 'me' : '') }, placeName(p))))));
  const body = h('tbody', {});
  for (const cat of cats()) {
    body.append(h('tr', { class: 'cat' }, h('th', { colspan: a.places.length + 1 }, cat.name)));
    for (const card of cat.cards) {
      const row = h('tr', {}, h('th', { class: 'card-col', title: card.name }, h('span', { class: 'code' }, card.id), ' ', h('span', { class: 'name' }, card.name)));
      a.cells[card.id].forEach((cell, i) => {
        const place = a.places[i];
        const td = h('td', { 'data-card': card.id, 'data-place': place, 'data-status': cell.status,
          class: `cell ${cell.status}${place === 'case_file' ? ' case' : ''}`,
          tabindex: cell.status === 'maybe' ? undefined : 0,
          title: `${card.name} at ${placeName(place)}: ${(cell.p * 100).toFixed(2)}%`,
          onclick: () => showWhy(card.id, place, cell.status),
          onkeydown: (ev) => { if (ev.key === 'Enter') showWhy(card.id, place, cell.status); } },
        a.consistent ? percent(cell.p, cell.status) : '?');
        if (a.consistent && cell.status === 'maybe') {
          const hue = place === 'case_file' ? '200, 40, 40' : '30, 90, 200';
          td.style.backgroundColor = `rgba(${hue}, ${(0.08 + 0.72 * cell.p).toFixed(3)})`;
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
    status.replaceChildren(h('strong', { id: 'models' }, n), ` consistent deal${a.models === '1' ? '' : 's'} (exact)`,
      h('span', { class: 'muted' }, ` · analysed in ${a.millis.toFixed(1)} ms`));
    conflictBox.classList.add('hidden');
  } else {
    status.replaceChildren(h('strong', { id: 'models' }, '0'), ' consistent deals');
    const c = a.conflict || { events: [], hand: false };
    conflictBox.replaceChildren(
      h('strong', {}, 'Contradiction: no deal fits every turn.'),
      ' These cannot all be true (one of them was probably entered wrong; every turn is kept, so edit or delete the wrong one):',
      h('ul', {}, c.events.map((e) => h('li', {}, `turn ${e.index}: ${e.text}`)), c.hand ? h('li', {}, 'your hand') : null));
    conflictBox.classList.remove('hidden');
  }

  const cf = $('case-files');
  cf.replaceChildren();
  for (const f of a.case_files) {
    cf.append(h('li', {}, h('span', { class: 'prob' }, `${(f.probability * 100).toFixed(1)}%`), ' ', f.cards.join(', ')));
  }
  if (a.case_files_count !== null && a.case_files_count > a.case_files.length) {
    cf.append(h('li', { class: 'muted' }, `… and ${a.case_files_count - a.case_files.length} more`));
  }
  if (a.case_files_count === null) cf.append(h('li', { class: 'muted' }, 'too many to list'));
}

async function showWhy(card, place, status) {
  const box = $('why');
  if (status === 'maybe') { box.classList.add('hidden'); return; }
  box.classList.remove('hidden');
  box.replaceChildren(h('span', { class: 'muted' }, 'Looking for the turns that force it…'));
  try {
    const w = await api('GET', `/api/games/${state.game.id}/why?card=${encodeURIComponent(card)}&place=${encodeURIComponent(place)}`);
    const where = place === 'case_file' ? 'the case file' : place;
    const fact = `${card} is ${w.status === 'yes' ? '' : 'not '}in ${where}`;
    if (!w.certain) {
      box.replaceChildren(w.inconsistent ? 'Nothing is certain: the turns contradict each other.' : `${card} at ${where} is not certain.`);
      return;
    }
    const items = w.events.map((e) => h('li', { 'data-index': e.index }, `turn ${e.index}: ${e.text}`));
    if (w.hand) items.push(h('li', {}, 'your hand'));
    box.replaceChildren(h('strong', { id: 'why-fact' }, `Why ${fact}:`),
      items.length ? h('ul', { id: 'why-list' }, items) : h('p', {}, 'the rules alone (deck, hand sizes, face-up cards) force it.'),
      w.minimum ? null : h('p', { class: 'muted' }, 'a minimal set; the search for a smaller one ran out of budget'),
      h('button', { type: 'button', class: 'small', onclick: () => box.classList.add('hidden') }, 'Close'));
  } catch (e) { box.replaceChildren(e.message); }
}

const pct = (p, digits = 0) => `${(p * 100).toFixed(digits)}%`;

/** sleuth-core's advice, asked for after the notepad is drawn (it may take longer). */
async function refreshAdvice() {
  const body = $('advice-body');
  const id = state.game.id;
  const version = state.game.version;
  body.dataset.version = '';
  $('advice-source').textContent = '(thinking…)';
  let adv;
  try {
    adv = await api('GET', `/api/games/${id}/advice`);
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
  const a = adv.accuse;
  const cards = a.cards.join(', ');
  // The exact probability first; then the rule that decided, in words.
  const exact = `exact chance ${pct(a.probability, 1)}`;
  if (a.now && a.certain) {
    body.append(h('p', { id: 'advice-accuse', class: 'accuse' }, h('strong', {}, `Accuse now: ${cards} (certain).`)));
  } else if (a.now) {
    body.append(h('p', { id: 'advice-accuse', class: 'accuse' }, h('strong', {}, `Accuse now: ${cards}`), `, ${exact}.`));
  } else {
    body.append(h('p', { id: 'advice-accuse' }, `Do not accuse yet: the most likely case file, ${cards}, has ${exact}.`));
  }
  if (!a.certain && a.reason !== 'out') {
    const threat = a.lookahead
      ? `An opponent can know the case file by the end of its next turn with chance ${pct(a.threat)}`
      : `An opponent knows the case file now with chance ${pct(a.threat)}`;
    body.append(h('p', { id: 'advice-why' }, `Why: ${a.rule}. ${threat}, ${a.threat_basis}.`));
  } else if (a.reason === 'out') {
    body.append(h('p', { id: 'advice-why' }, `Why: ${a.rule}.`));
  }
  if (!(a.now && a.certain) && adv.suggest.length) {
    body.append(h('p', {}, 'Suggest (best first):'), h('ol', { id: 'advice-suggest' }, adv.suggest.map((s) =>
      h('li', {}, h('strong', {}, s.cards.join(', ')),
        ` — ${s.information.toFixed(2)} bits expected, ends the game with chance ${pct(s.end_probability)}`))));
  }
  if (adv.opponents.length) {
    body.append(h('p', {}, 'Opponents (estimated from sampled deals; what each can know, counted exactly):'), h('ul', { id: 'advice-opponents' }, adv.opponents.map((o) =>
      h('li', { 'data-player': o.player }, o.out ? `${o.player}: out (wrong accusation)`
        : `${o.player}: knows the case file now with chance ${pct(o.solved)}, ${o.entropy.toFixed(1)} bits left`
          + (o.lookahead ? `; can know it by the end of its next turn with chance ${pct(o.threat)}` : '')))));
  }
  if (adv.hint && !(a.now && a.certain)) {
    // A model of how people ask, never a probability of a case file.
    const hint = adv.hint;
    const text = hint.cards && hint.habitual.length
      ? `If ${hint.habitual.join(', ')} avoid asking about their own cards, as their questions so far suggest, ${hint.cards.join(', ')} would be the likeliest case file (about ${hint.factor.toFixed(1)} times its exact chance).`
      : 'No opponent\'s questions show that it avoids asking about its own cards, so there is no hint.';
    body.append(h('p', { id: 'advice-hint' }, h('em', {}, 'Behaviour hint (a guess, not a deduction; never used for "accuse now"): '), text));
  }
}

// ---------------------------------------------------------------- turn form

function options(select, values, labels) {
  const old = select.value;
  select.replaceChildren(...values.map((v, i) => h('option', { value: v }, labels ? labels[i] : v)));
  if (values.includes(old)) select.value = old;
}

/** The next suggester: after the last event's, in seat order. */
function nextSuggester() {
  const ev = state.game.file.events;
  if (!ev.length) return players()[0];
  const last = Object.values(ev[ev.length - 1])[0].by;
  const i = players().indexOf(last);
  return players()[(i + 1) % players().length];
}

function renderTurnForm(reset) {
  options($('turn-by'), players());
  const box = $('turn-cards');
  if (reset || !box.children.length) {
    box.replaceChildren(...cats().map((cat, i) =>
      h('label', {}, cat.name, h('select', { id: `turn-card-${i}`, 'data-category': cat.name, onchange: updateAnswerFields },
        h('option', { value: '' }, '—'), cat.cards.map((c) => h('option', { value: c.id }, `${c.id} · ${c.name}`))))));
    $('turn-by').value = nextSuggester();
    $('turn-kind').value = 'suggestion';
    $('turn-correct').checked = false;
  }
  // The ask-me form: a suggester and one select per category.
  options($('ask-by'), players().filter((p) => p !== me()));
  $('ask-cards').replaceChildren(...cats().map((cat, i) =>
    h('select', { id: `ask-card-${i}`, 'aria-label': cat.name }, cat.cards.map((c) => h('option', { value: c.id }, c.id)))));
  $('ask').classList.toggle('hidden', !me());
  updateAnswerFields();
}

function turnCards() {
  return cats().map((_, i) => $(`turn-card-${i}`).value);
}

/** Refuter choices, the shown-card choice and the implied passes. */
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
  options(refuted, ['', ...order], ['nobody', ...order]);
  refuted.value = order.includes(oldRef) || oldRef === '' ? oldRef : (order[0] || '');
  if (refuted.dataset.init !== '1' && order.length) { refuted.value = order[0]; refuted.dataset.init = '1'; }
  const r = refuted.value;
  const seen = kind === 'suggestion' && r && me() && (by === me() || r === me());
  $('turn-shown-label').classList.toggle('hidden', !seen);
  const cards = turnCards().filter(Boolean);
  options($('turn-shown'), ['', ...cards], ['(not seen)', ...cards]);
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
  const shown = $('turn-shown').value;
  if (shown && !$('turn-shown-label').classList.contains('hidden')) s.shown = shown;
  return { suggestion: s };
}

async function submitTurn(ev) {
  ev.preventDefault();
  let event;
  try { event = readTurn(); } catch (e) { showError(e.message); return; }
  showError('');
  const editing = state.editing;
  const t0 = performance.now();
  const ok = editing === null
    ? await change('POST', '/events', { event })
    : await change('PUT', `/events/${editing}`, { event });
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
  stopEdit();
  $('turn-by').value = nextSuggester();
  for (let i = 0; i < cats().length; i++) $(`turn-card-${i}`).value = '';
  $('turn-refuted').dataset.init = '';
  $('turn-kind').value = 'suggestion';
  $('turn-correct').checked = false;
  updateAnswerFields();
  $('turn-by').focus();
}

function startEdit(index) {
  const spec = state.game.file.events[index];
  const kind = Object.keys(spec)[0];
  const e = spec[kind];
  state.editing = index;
  $('turn-title').textContent = `Edit turn ${index}`;
  $('turn-submit').textContent = 'Save turn';
  $('turn-cancel').classList.remove('hidden');
  $('turn-kind').value = kind;
  $('turn-by').value = e.by;
  cats().forEach((_, i) => { $(`turn-card-${i}`).value = e.cards[i] || ''; });
  updateAnswerFields();
  if (kind === 'suggestion') {
    $('turn-refuted').value = e.refuted_by || '';
    updateAnswerFields();
    $('turn-shown').value = e.shown || '';
  } else {
    $('turn-correct').checked = !!e.correct;
  }
  renderGame();
  $('turn-by').focus();
}

function stopEdit() {
  state.editing = null;
  $('turn-title').textContent = 'New turn';
  $('turn-submit').textContent = 'Add turn';
  $('turn-cancel').classList.add('hidden');
  renderGame();
}

async function askMe(ev) {
  ev.preventDefault();
  const by = $('ask-by').value;
  const cards = cats().map((_, i) => $(`ask-card-${i}`).value).join(',');
  try {
    const adv = await api('GET', `/api/games/${state.game.id}/advice?by=${encodeURIComponent(by)}&cards=${encodeURIComponent(cards)}`);
    const s = adv.show;
    $('ask-answer').textContent = s.card ? `Show ${s.card}: ${s.reason}.` : `${s.reason}.`;
    $('ask-answer').dataset.card = s.card || '';
  } catch (e) { $('ask-answer').textContent = e.message; $('ask-answer').dataset.card = ''; }
}

// ---------------------------------------------------------------- start

async function start() {
  try { state.decks = await api('GET', '/api/decks'); } catch (e) { showError(e.message); return; }
  $('setup').addEventListener('submit', createGame);
  $('setup-deck').addEventListener('change', renderSetup);
  $('setup-custom').addEventListener('input', renderSetup);
  $('setup-players').addEventListener('input', renderSetup);
  $('import').addEventListener('change', importGame);
  $('nav-new').addEventListener('click', () => { location.hash = '#/new'; });
  // On a phone the notepad comes first; this jumps to the turn form.
  $('nav-turn').addEventListener('click', () => { $('turn').scrollIntoView(); $('turn-by').focus({ preventScroll: true }); });
  $('list-new').addEventListener('click', () => { location.hash = '#/new'; });
  $('turn').addEventListener('submit', submitTurn);
  $('turn-kind').addEventListener('change', updateAnswerFields);
  $('turn-by').addEventListener('change', updateAnswerFields);
  $('turn-refuted').addEventListener('change', updateAnswerFields);
  $('turn-cancel').addEventListener('click', stopEdit);
  $('ask').addEventListener('submit', askMe);
  $('undo').addEventListener('click', () => change('POST', '/undo', {}));
  $('redo').addEventListener('click', () => change('POST', '/redo', {}));
  document.addEventListener('keydown', (ev) => {
    if (!state.game || $('view-game').classList.contains('hidden')) return;
    const mod = ev.ctrlKey || ev.metaKey;
    if (mod && ev.key === 'z' && !ev.shiftKey) { ev.preventDefault(); if (!$('undo').disabled) change('POST', '/undo', {}); }
    if (mod && (ev.key === 'y' || (ev.key === 'z' && ev.shiftKey))) { ev.preventDefault(); if (!$('redo').disabled) change('POST', '/redo', {}); }
    if (ev.key === 'Escape' && state.editing !== null) stopEdit();
  });
  window.addEventListener('hashchange', route);
  route();
}

start();
