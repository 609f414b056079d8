// Times the WebAssembly engine's analyze (what the offline app's notepad
// runs after every turn: the exact analysis and its JSON) on the states of
// `sleuth bench`: generated games (`sleuth generate --seed 0..GAMES-1`), the
// classic deck with 3 to 6 players and the master deck with 10 (a player's
// view and a bystander's), after 0 to 80 suggestions. Each state is timed in 3 passes and its fastest kept, in
// process: under Node, and with --browser in headless Chromium (the page's
// main thread, the build served from a static server on loopback; Chromium
// rounds performance.now() to 0.1 ms). With --advice it times advise (what
// the app's "Advice" runs, with the default options) instead, on the states
// of `sleuth bench --advice` that have an observer: classic 3 to 6 players
// and master 6, 8 and 10, after 10 and 20 suggestions.
//   node crates/sleuth-wasm/bench.mjs OUT_DIR SLEUTH_BIN [GAMES] [--browser] [--advice]
// OUT_DIR is crates/sleuth-wasm/build.sh's; SLEUTH_BIN the command line
// (target/release/sleuth); GAMES per cell, default 50. --browser needs
// Chromium (SLEUTH_CHROMIUM or /usr/bin/chromium) and playwright-core
// (npm ci --prefix crates/sleuth-web/e2e).
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';

const args = process.argv.slice(2).filter((a) => a !== '--browser' && a !== '--advice');
const browser = process.argv.includes('--browser');
const advice = process.argv.includes('--advice');
const timed = advice ? 'advise' : 'analyze';
const [outDir, sleuth, gamesArg] = args;
if (!outDir || !sleuth) {
  console.error('usage: node crates/sleuth-wasm/bench.mjs OUT_DIR SLEUTH_BIN [GAMES] [--browser] [--advice]');
  process.exit(2);
}
const games = Number(gamesArg || 50);
const SUGGESTIONS = advice ? [10, 20] : [0, 10, 20, 40, 80];
const KINDS = [3, 4, 5, 6].map((p) => ({ deck: 'classic', players: p, view: 'observer' }))
  .concat(advice
    ? [6, 8, 10].map((p) => ({ deck: 'master', players: p, view: 'observer' }))
    : [{ deck: 'master', players: 10, view: 'observer' }, { deck: 'master', players: 10, view: 'bystander' }]);

const cells = [];
for (const kind of KINDS) {
  for (const suggestions of SUGGESTIONS) {
    const states = [];
    for (let seed = 0; seed < games; seed++) {
      states.push(execFileSync(sleuth, ['generate', '--seed', `${seed}`, '--deck', kind.deck, '--players', `${kind.players}`,
        '--suggestions', `${suggestions}`, ...(kind.view === 'bystander' ? ['--bystander'] : [])], { encoding: 'utf8' }));
    }
    cells.push({ ...kind, suggestions, states });
  }
}

/** Runs in Node or in the page: the fastest of 3 passes per state of engine[timed], in ms, cell by cell. */
async function timeAll(sleuthUrl, cells, timed) {
  const engine = await import(sleuthUrl);
  await engine.init();
  const out = [];
  for (const cell of cells) {
    const best = cell.states.map(() => Infinity);
    for (let pass = 0; pass < 3; pass++) {
      cell.states.forEach((game, i) => {
        const t = performance.now();
        engine[timed](game);
        best[i] = Math.min(best[i], performance.now() - t);
      });
    }
    out.push(best);
  }
  return out;
}

let times;
let where;
if (!browser) {
  where = `Node ${process.version}`;
  times = await timeAll(new URL(`file://${resolve(outDir, 'sleuth.mjs')}`).href, cells, timed);
} else {
  const { chromium } = await import(new URL('../sleuth-web/e2e/node_modules/playwright-core/index.mjs', import.meta.url));
  const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer(async (req, res) => {
    try {
      const path = new URL(req.url, 'http://x').pathname;
      const body = await readFile(join(outDir, path === '/' ? 'index.html' : path.replace(/\.\./g, '')));
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] || 'text/html' });
      res.end(body);
    } catch (_) { res.writeHead(404); res.end(); }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const b = await chromium.launch({ executablePath: process.env.SLEUTH_CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await b.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/sleuth.mjs`);
    where = `headless ${b.version()}`;
    times = await page.evaluate(`(${timeAll.toString()})(${JSON.stringify(new URL('/sleuth.mjs', page.url()).href)}, ${JSON.stringify(cells)}, ${JSON.stringify(timed)})`);
  } finally {
    await b.close();
    server.close();
  }
}

const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
console.log(`sleuth.wasm ${timed}, ${where}: ${games} states per cell, fastest of 3 passes`);
console.log('| deck    | players | view     | suggestions | median ms | p95 ms | max ms |');
console.log('| ------- | ------: | -------- | ----------: | --------: | -----: | -----: |');
cells.forEach((c, i) => {
  const t = times[i];
  console.log(`| ${c.deck.padEnd(7)} | ${String(c.players).padStart(7)} | ${c.view.padEnd(8)} | ${String(c.suggestions).padStart(11)} | ${q(t, 0.5).toFixed(3).padStart(9)} | ${q(t, 0.95).toFixed(3).padStart(6)} | ${Math.max(...t).toFixed(3).padStart(6)} |`);
});
