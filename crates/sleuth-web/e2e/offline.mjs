// The offline app (crates/sleuth-wasm/build.sh OUT_DIR) in a real headless
// Chromium on a 360×740 phone, with the network off. Run by tests/it/e2e.rs,
// which passes, in the environment:
//   SLEUTH_APP_DIR    the built app (OUT_DIR)
//   SLEUTH_SAMPLE     testdata/seed-sat-sample.json
//   SLEUTH_EXPECTED   [{card: {place: "O" | "X" | "37%"}}]: the notepad as sleuth-core computes it
//                     before the first turn and after each turn of the sample
//   SLEUTH_EXPORT     where to save the game file the page exports
//   SLEUTH_CHROMIUM   the browser to drive
// The app is loaded once from a static server on loopback; then the server
// is stopped and the browser goes offline (context.setOffline), and
// everything else (reload, the whole sample game, export, reload again) runs
// from the service worker's cache, IndexedDB and the engine in WebAssembly.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';

const dir = process.env.SLEUTH_APP_DIR;
const sample = JSON.parse(readFileSync(process.env.SLEUTH_SAMPLE, 'utf8'));
const expected = JSON.parse(readFileSync(process.env.SLEUTH_EXPECTED, 'utf8'));

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
const URL_ = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.SLEUTH_CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let page = null;
const errors = [];
const timings = { turn_ms: [], analysis_ms: [] };
try {
  const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, acceptDownloads: true });
  page = await ctx.newPage();
  page.setDefaultTimeout(30000);
  page.on('pageerror', (e) => errors.push(String(e)));

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

  // ---- offline: the server is gone and the browser has no network
  await new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await ctx.setOffline(true);
  const online = [];
  page.on('requestfailed', (r) => online.push(r.url()));
  await page.reload();
  await page.waitForSelector('#view-list:not(.hidden)');
  check(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'the reloaded page comes from the service worker');
  check(await page.evaluate(() => !navigator.onLine), 'the browser is offline');

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

  check(online.length === 0, `requests that went to the network: ${online}`);
  check(errors.length === 0, `errors in the page: ${errors.join('; ')}`);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(JSON.stringify({ turns: sample.events.length, turn_ms_median: median(timings.turn_ms), analysis_ms_median: median(timings.analysis_ms), served: served.length }));
} catch (e) {
  if (page) console.error(`the page says: ${await page.textContent('#error').catch(() => '?')}`);
  console.error(`page errors: ${errors.join('; ')}`);
  throw e;
} finally {
  await browser.close();
  server.close();
}
