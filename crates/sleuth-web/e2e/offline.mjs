// The offline app (crates/sleuth-wasm/build.sh OUT_DIR) in a real headless
// Chromium on a 360×740 phone, with the network off. Run by tests/it/e2e.rs,
// which passes, in the environment:
//   SLEUTH_APP_DIR    the built app (OUT_DIR)
//   SLEUTH_SAMPLE     testdata/seed-sat-sample.json
//   SLEUTH_EXPECTED   [{card: {place: "O" | "X" | "37%"}}]: the notepad as sleuth-core computes it
//                     before the first turn and after each turn of the sample
//   SLEUTH_EXPORT     where to save the game file the page exports
//   SLEUTH_WHAT_IF    after the sample's first 12 turns, as sleuth-core computes them: {card, analysis}
//                     a what-if (mu holds card) and {best, after} the advice's best suggestion,
//                     every answer evaluated, and the game with its first answer added
//   SLEUTH_RANKED     sleuth-core's ranking of custom-4x8-slow-advice.json (advice-progress.mjs)
//   SLEUTH_CHROMIUM   the browser to drive
// The app is loaded once from a static server on loopback; then the server
// is stopped and the browser goes offline (context.setOffline, and every
// request that reaches the network fails), and
// everything else (reload, the whole sample game, export, reload again, the
// API's semantics, a slow advice as it firms up, a long count cancelled) runs from the service worker's
// cache, IndexedDB and the engine in WebAssembly.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { slowGame, watchAdvice } from './advice-progress.mjs';

// Served from a copy, which the test changes to publish a new version.
const dir = mkdtempSync(join(tmpdir(), 'sleuth-app-'));
cpSync(process.env.SLEUTH_APP_DIR, dir, { recursive: true });
const sample = JSON.parse(readFileSync(process.env.SLEUTH_SAMPLE, 'utf8'));
const expected = JSON.parse(readFileSync(process.env.SLEUTH_EXPECTED, 'utf8'));
const whatIf = JSON.parse(readFileSync(process.env.SLEUTH_WHAT_IF, 'utf8'));

function check(cond, message) {
  if (!cond) throw new Error(`check failed: ${message}`);
}

// ---- a static server on loopback, as any static host serves the folder
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.webmanifest': 'application/manifest+json', '.svg': 'image/svg+xml', '.png': 'image/png' };
const served = [];
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
  served.push(path);
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream' });
    res.end(body);
  } catch (_) {
    res.writeHead(404);
    res.end('not found');
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const PORT = server.address().port;
// A file the app never had: once offline, fetching it must fail, and its
// failure is the only one the page may report.
const PROBE = '/not-in-the-cache-probe';
const URL_ = `http://127.0.0.1:${PORT}/`;

const browser = await chromium.launch({
  executablePath: process.env.SLEUTH_CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let page = null;
let probe = null;
const errors = [];
const timings = { turn_ms: [], analysis_ms: [] };
try {
  const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, acceptDownloads: true });
  page = await ctx.newPage();
  page.setDefaultTimeout(30000);
  page.on('pageerror', (e) => errors.push(String(e)));
  // A file the content security policy blocks, or one that fails to load, is a console error.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.location().url.endsWith(PROBE)) errors.push(`console: ${m.text()}`);
  });

  // ---- the first load, online: the service worker caches every file
  await page.goto(URL_);
  await page.waitForSelector('#view-list:not(.hidden)');
  const installed = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const w = reg.active;
    if (w.state !== 'activated') await new Promise((resolve) => w.addEventListener('statechange', () => w.state === 'activated' && resolve()));
    const names = await caches.keys();
    const files = (await (await caches.open(names[0])).keys()).map((r) => new URL(r.url).pathname);
    const manifest = document.querySelector('link[rel="manifest"]').href;
    return { names, files, manifest };
  });
  check(installed.names.length === 1 && installed.names[0].startsWith('sleuth-'), `one versioned cache: ${installed.names}`);
  for (const f of ['/', '/index.html', '/app.js', '/style.css', '/local.mjs', '/worker.mjs', '/sleuth.mjs', '/sleuth.wasm', '/manifest.webmanifest', '/icon-192.png']) {
    check(installed.files.includes(f), `the cache holds ${f}: ${installed.files}`);
  }
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.webmanifest'), 'utf8'));
  check(manifest.icons.some((i) => i.sizes === '512x512') && manifest.display === 'standalone', 'an installable manifest');

  // ---- a new version is published: it installs beside the old one, the page
  // offers to reload, and after that only the new version's cache is left
  const sw = readFileSync(join(dir, 'sw.js'), 'utf8');
  const version = sw.match(/const VERSION = '([0-9a-f]+)'/)[1];
  writeFileSync(join(dir, 'sw.js'), sw.replace(`const VERSION = '${version}'`, `const VERSION = '${version}-next'`));
  await page.reload();
  await page.waitForSelector('#update button');
  const both = await page.evaluate(async () => (await caches.keys()).sort());
  check(both.length === 2, `the new version waits beside the old one until asked: ${both}`);
  await Promise.all([page.waitForEvent('load'), page.click('#update button')]);
  await page.waitForSelector('#view-list:not(.hidden)');
  await page.waitForFunction(async (next) => JSON.stringify(await caches.keys()) === JSON.stringify([`sleuth-${next}`]), `${version}-next`);

  // ---- offline: the server is gone and the browser has no network
  await new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await ctx.setOffline(true);
  // Some Chromium releases (148, 150) leave a service worker's own fetches online under setOffline
  // and navigator.onLine true; failing every request that reaches the network takes it away
  // from the page and its worker alike, in every release.
  await ctx.route('**/*', (route) => route.abort('internetdisconnected'));
  const online = [];
  page.on('requestfailed', (r) => { if (!r.url().endsWith(PROBE)) online.push(r.url()); });
  // A server at the app's old address, to catch anything that still gets through.
  const reached = [];
  probe = createServer((req, res) => { reached.push(req.url); res.end('reached'); });
  await new Promise((resolve) => probe.listen(PORT, '127.0.0.1', resolve));
  await page.reload();
  await page.waitForSelector('#view-list:not(.hidden)');
  check(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'the reloaded page comes from the service worker');
  const fetched = await page.evaluate((p) => fetch(p).then((r) => r.text(), (e) => `failed: ${e}`), PROBE);
  check(fetched.startsWith('failed') && reached.length === 0, `the network is gone: a file not in the cache gives ${fetched}; the server saw ${reached}`);

  // ---- the sample game, set up and entered on the phone
  await page.tap('#nav-new');
  await page.fill('#setup-players', sample.players.join(' '));
  await page.selectOption('#setup-me', sample.me);
  for (const card of sample.hand) await page.check(`#setup-hand input[value="${card}"]`);
  await page.tap('#setup-create');
  await page.waitForSelector('#notepad[data-version="0"]');

  /** The notepad cell by cell against sleuth-core's, after `turns` turns. */
  async function checkNotepad(turns) {
    const cells = await page.$$eval('#notepad td.cell', (tds) => tds.map((td) => [td.dataset.card, td.dataset.place, td.textContent]));
    const want = expected[turns];
    check(cells.length === Object.keys(want).length * (sample.players.length + 1), `after turn ${turns}: ${cells.length} cells`);
    for (const [card, place, text] of cells) {
      check(want[card][place] === text, `after turn ${turns}: ${card} at ${place} shows ${text}, expected ${want[card][place]}`);
    }
  }
  await checkNotepad(0);

  /** Every cell of the notepad shown, against an analysis of sleuth-core's: its text, its exact percentage (the title) and the deals. */
  async function sameNotepad(a, label) {
    const cells = await page.$$eval('#notepad td.cell', (tds) => tds.map((td) => [td.dataset.card, td.dataset.place, td.textContent, td.title]));
    check(cells.length === Object.keys(a.status).length * a.places.length, `${label}: ${cells.length} cells`);
    for (const [card, place, text, title] of cells) {
      const p = a.probabilities[card][place];
      const s = a.status[card][place];
      const want = s === 'yes' ? 'O' : s === 'no' ? 'X' : p * 100 < 1 ? '<1%' : p * 100 > 99 ? '>99%' : `${Math.round(p * 100)}%`;
      check(text === want && title.endsWith(`${(p * 100).toFixed(2)}%`), `${label}: ${card} at ${place} shows ${text} (${title}), sleuth-core ${p}`);
    }
    const models = await page.textContent('#models');
    check(models === BigInt(a.models).toLocaleString('en-US'), `${label}: ${models} deals, sleuth-core ${a.models}`);
  }

  /** Offline, as on the server: a what-if (suppose mu holds an open card) and every answer to the advice's best suggestion. */
  async function whatIfOffline() {
    await page.tap(`#notepad td[data-card="${whatIf.card}"][data-place="mu"]`);
    await page.waitForSelector('#suppose-fact');
    await page.tap('#why button.suppose-yes');
    await page.waitForSelector('#notepad[data-what-if="1"]');
    check((await page.textContent('#what-if-short')).startsWith('What-if: mu holds '), 'the what-if says what is supposed');
    await sameNotepad(whatIf.analysis, `the what-if (mu holds ${whatIf.card})`);
    await page.tap('#what-if-leave');
    await checkNotepad(12);

    const best = whatIf.best;
    await page.waitForSelector('#advice-body[data-version="12"]');
    await page.tap('#advice-suggest li:first-child button.plan-this');
    await page.waitForSelector(`#plan-answer[data-cards="${best.cards.join(',')}"]`);
    const rows = await page.$$eval('#plan-outcomes li', (lis) => lis.map((li) => [li.dataset.refuter, li.dataset.shown, li.querySelector('.prob').textContent, li.textContent]));
    check(rows.length === best.outcomes.length, `${rows.length} answers to the planned suggestion, sleuth-core ${best.outcomes.length}`);
    rows.forEach(([refuter, shown, prob, text], i) => {
      const o = best.outcomes[i];
      check(refuter === (o.refuter || '') && shown === (o.shown || ''), `answer ${i}: ${refuter} ${shown}, sleuth-core ${o.refuter} ${o.shown}`);
      check(prob === `${(o.probability * 100).toFixed(1)}%`, `answer ${i}: ${prob}, sleuth-core ${o.probability}`);
      check(text.includes(`the case file then ${o.entropy_after.toFixed(2)} bits`), `answer ${i}: ${text}, sleuth-core ${o.entropy_after}`);
    });
    await page.tap('#plan-outcomes li:first-child button.plan-see');
    await page.waitForSelector('#notepad[data-what-if="1"]');
    await sameNotepad(whatIf.after, 'the notepad after the planned suggestion\'s first answer');
    await page.keyboard.press('Escape');
    check(await page.isHidden('#what-if'), 'Escape leaves the what-if');
    await checkNotepad(12);
  }

  for (let i = 0; i < sample.events.length; i++) {
    const spec = sample.events[i];
    const kind = Object.keys(spec)[0];
    const e = spec[kind];
    await page.tap('#nav-turn');
    await page.selectOption('#turn-kind', kind);
    await page.selectOption('#turn-by', e.by);
    for (let c = 0; c < e.cards.length; c++) await page.selectOption(`#turn-card-${c}`, e.cards[c]);
    if (kind === 'suggestion') {
      await page.selectOption('#turn-refuted', e.refuted_by || '');
      if (e.shown) await page.selectOption('#turn-shown', e.shown);
    } else if (e.correct) {
      await page.check('#turn-correct');
    }
    const t0 = Date.now();
    await page.tap('#turn-submit');
    await page.waitForSelector(`#notepad[data-version="${i + 1}"]`);
    timings.turn_ms.push(Date.now() - t0);
    await checkNotepad(i + 1);
    const status = await page.textContent('#status');
    const ms = status.match(/analysed in ([0-9.]+) ms/);
    check(ms, `the status says how long the engine took: ${status}`);
    timings.analysis_ms.push(Number(ms[1]));
    await page.waitForSelector('body:not([data-busy="1"])', { state: 'attached' });
    if (i + 1 === 12) await whatIfOffline();
  }
  check(await page.locator('#events li[data-id]').count() === sample.events.length, 'every turn is listed');

  // ---- export: the game file, from this browser's store
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  await writeFile(process.env.SLEUTH_EXPORT, await readFile(await download.path()));

  // ---- a reload, still offline, keeps the game
  await page.reload();
  await page.waitForSelector(`#notepad[data-version="${sample.events.length}"]`);
  await checkNotepad(sample.events.length);
  check(await page.locator('#events li[data-id]').count() === sample.events.length, 'every turn is still listed after a reload');

  // ---- undo and redo, as the server's store does them
  await page.click('#undo');
  await page.waitForSelector(`#notepad[data-version="${sample.events.length + 1}"]`);
  await checkNotepad(sample.events.length - 1);
  await page.waitForSelector('body:not([data-busy="1"])', { state: 'attached' });
  await page.click('#redo');
  await page.waitForSelector(`#notepad[data-version="${sample.events.length + 2}"]`);
  await checkNotepad(sample.events.length);

  // ---- the local backend answers as the server's API does (api.rs): a second
  // backend on the same IndexedDB, as another tab would open it
  const semantics = await page.evaluate(async (gameUrl) => {
    const id = gameUrl.match(/#\/game\/(.+)$/)[1];
    const other = await (await import('./local.mjs')).open();
    const at = async (method, path, body, headers) => other.request(method, `/api/games/${id}${path}`, body, headers);
    const out = {};
    const v = (await at('GET', '')).data.version;
    const turn = { suggestion: { by: 'sc', cards: ['mu', 'kn', 'ha'], refuted_by: 'mu', shown: null } };
    const key = { 'If-Match': `"${v}"`, 'Idempotency-Key': 'k-offline-1' };
    const first = await at('POST', '/events', { event: turn }, key);
    const again = await at('POST', '/events', { event: turn }, key);
    out.add = [first.status, first.data.change, again.status, again.data.change, again.data.events.length];
    out.otherChange = (await at('POST', '/events', { event: { ...turn } }, { ...key, 'Idempotency-Key': 'k-offline-2' })).status;
    out.noKey = (await at('POST', '/events', { event: turn }, { 'If-Match': `"${v + 1}"` })).status;
    out.unknownKey = (await at('POST', '/events', { event: { suggestion: { ...turn.suggestion, x: 1 } } }, { 'If-Match': `"${v + 1}"`, 'Idempotency-Key': 'k3' })).status;
    out.otherReplay = (await at('POST', '/events', { event: { accusation: { by: 'sc', cards: ['mu', 'kn', 'ha'], correct: false } } }, key)).status;
    const del = await at('DELETE', `/events/${first.data.change.turn}`, undefined, { 'If-Match': `"${v + 1}"` });
    const delAgain = await at('DELETE', `/events/${first.data.change.turn}`, undefined, { 'If-Match': `"${v + 2}"` });
    const staleV = await at('POST', '/undo', {}, { 'If-Match': `"${v}"` });
    out.del = [del.status, del.data.events.length, delAgain.status, staleV.status, staleV.data.state.version];
    out.noIfMatch = (await at('POST', '/undo', {})).status;
    out.position = (await at('DELETE', '/events/3', undefined, { 'If-Match': `"${v + 2}"` })).status;
    return out;
  }, page.url());
  const n = sample.events.length;
  check(JSON.stringify(semantics.add) === JSON.stringify([200, { version: n + 3, turn: `t${n + 1}`, replayed: false }, 200,
    { version: n + 3, turn: `t${n + 1}`, replayed: true }, n + 1]), `an add sent twice is stored once: ${JSON.stringify(semantics.add)}`);
  check(semantics.otherChange === 409, `a change based on an old version: ${semantics.otherChange}`);
  check(semantics.noKey === 400 && semantics.unknownKey === 400, `an add without a key, an event with an unknown key: ${JSON.stringify(semantics)}`);
  check(semantics.otherReplay === 422, `a key sent again with another change: ${semantics.otherReplay}`);
  check(JSON.stringify(semantics.del) === JSON.stringify([200, n, 404, 409, n + 4]), `delete by turn id, once; a stale undo: ${JSON.stringify(semantics.del)}`);
  check(semantics.noIfMatch === 428 && semantics.position === 400, `no If-Match; a position for a turn id: ${JSON.stringify(semantics)}`);

  // ---- a slow advice firms up: rankings of some suggestions first, then sleuth-core's (advice-progress.mjs)
  await page.evaluate(() => { location.hash = '#/'; });
  await page.waitForSelector('#view-list:not(.hidden)');
  const steps = await watchAdvice(page, () =>
    page.setInputFiles('#import', { name: 'slow.json', mimeType: 'application/json', buffer: slowGame }));

  // ---- a long count: the page stays responsive, shows it, and Cancel stops it
  await page.evaluate(() => { location.hash = '#/'; });
  await page.waitForSelector('#view-list:not(.hidden)');
  // Since the shared suggestion count, master advice takes under a second even here: a custom
  // deck of four categories of 8 cards (`sleuth generate --deck 8,8,8,8 --players 10
  // --suggestions 8 --seed 1`) keeps the advice counting for seconds.
  await page.setInputFiles('#import', { name: 'custom.json', mimeType: 'application/json', buffer: readFileSync(new URL('./custom-4x8-slow-advice.json', import.meta.url)) });
  await page.waitForSelector('#notepad[data-version="0"]');
  await page.waitForSelector('#counting', { state: 'visible' });
  const t0 = Date.now();
  await page.evaluate(() => document.body.offsetHeight);
  const responsive = Date.now() - t0;
  check(responsive < 1000, `the page answers while the engine counts (${responsive} ms)`);
  await page.tap('#counting-cancel');
  await page.waitForFunction(() => document.getElementById('advice-body').textContent.includes('Counting cancelled'));
  check(!(await page.isVisible('#counting')), 'the counting bar goes with the count');
  // A new engine takes the next request: why a card of my hand is mine.
  await page.click('#notepad td.cell[data-card="d6"][data-place="p1"]');
  await page.waitForSelector('#why-fact');

  check(online.length === 0, `requests that went to the network: ${online}`);
  check(errors.length === 0, `errors in the page: ${errors.join('; ')}`);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(JSON.stringify({ turns: sample.events.length, turn_ms_median: median(timings.turn_ms), analysis_ms_median: median(timings.analysis_ms), served: served.length, advice_steps: steps }));
} catch (e) {
  if (page) console.error(`the page says: ${await page.textContent('#error').catch(() => '?')}`);
  console.error(`page errors: ${errors.join('; ')}`);
  throw e;
} finally {
  await browser.close();
  server.close();
  probe?.close();
  rmSync(dir, { recursive: true, force: true });
}
