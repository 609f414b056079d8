// Compares the WebAssembly engine with the command line, text for text:
//   node compare.mjs OUT_DIR SLEUTH_BINARY GAME.json...
// For each game: analyze, check, advise and why on a few facts through
// OUT_DIR/sleuth.mjs, against `sleuth CMD --json` reading the same text from
// standard input: the same JSON text where the command prints JSON (exit
// 0, 1 or 3), the same message where it fails (exit 2, or advise's 3).
// The one exception: advise's entropies go through log2, which the platform's
// maths library computes (glibc natively, Rust's libm in WebAssembly) and
// which can differ in the last bit; there the JSON must be the same but for
// numbers within 1e-15 of each other, each such number listed.
// And the page's stateless requests (src/page.rs) against the same answers:
// a what-if supposing an open cell leaves exactly the deals `analyze` counted
// there (and the others when supposing the opposite), the cell then certain;
// a planned suggestion (`evaluate`) of each of advise's suggestions is the
// suggestion as advise lists it.
// Exits 1 on the first difference, after saying which.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [outDir, sleuthBin, ...games] = process.argv.slice(2);
if (!outDir || !sleuthBin || games.length === 0) {
  console.error("usage: node compare.mjs OUT_DIR SLEUTH_BINARY GAME.json...");
  process.exit(2);
}
const sleuth = await import(pathToFileURL(path.resolve(outDir, "sleuth.mjs")).href);
await sleuth.init();

function cli(args, input) {
  const r = spawnSync(sleuthBin, args, { input, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return r;
}

// What the engine answers: {json} or {error}.
function engine(f) {
  try {
    return { json: f() };
  } catch (e) {
    if (!(e instanceof Error) || e.constructor !== Error) throw e;
    return { error: e.message };
  }
}

// The command line's answer in the same terms. Its errors read
// "error: <stdin>: MESSAGE" (or without the file's name when the message is
// not about the file); advise's refusal of an inconsistent game is
// "<stdin>: MESSAGE" with exit code 3 and no JSON.
function command(r) {
  if (r.status === 2 || (r.stdout === "" && r.status === 3)) {
    const message = r.stderr.trimEnd().replace(/^error: /, "").replace(/^<stdin>: /, "");
    return { error: message };
  }
  if (![0, 1, 3].includes(r.status)) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return { json: r.stdout };
}

let compared = 0;
let lastBit = 0;
function same(what, mine, theirs, numbersNear = false) {
  compared++;
  if (mine.json === theirs.json && mine.error === theirs.error) return;
  if (numbersNear && mine.json && theirs.json && near(JSON.parse(mine.json), JSON.parse(theirs.json), what)) return;
  console.error(`DIFFERENT: ${what}`);
  console.error("wasm:", JSON.stringify(mine).slice(0, 2000));
  console.error("cli: ", JSON.stringify(theirs).slice(0, 2000));
  process.exit(1);
}

// The same values, numbers equal or within 1e-15 (relative) of each other.
function near(a, b, where) {
  if (typeof a === "number" && typeof b === "number") {
    if (a === b) return true;
    if (Math.abs(a - b) > 1e-15 * Math.max(1, Math.abs(a), Math.abs(b))) return false;
    lastBit++;
    console.log(`last bit: ${where}: ${a} (wasm) and ${b} (cli)`);
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => near(x, b[i], `${where}[${i}]`));
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = Object.keys(a);
    return keys.join() === Object.keys(b).join() && keys.every((k) => near(a[k], b[k], `${where}.${k}`));
  }
  return a === b;
}

/** JSON text of `v` with every object's keys sorted (the page's replies are JSON values, whose keys are sorted). */
function canonical(v) {
  const sorted = (x) => Array.isArray(x) ? x.map(sorted)
    : x && typeof x === "object" ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sorted(x[k])])) : x;
  return JSON.stringify(sorted(v));
}

/** A request of the page through the engine: its reply, which must be a 200. */
function request(r) {
  const reply = JSON.parse(sleuth.page(JSON.stringify(r)));
  if (reply.status !== 200) {
    console.error(`REFUSED: ${JSON.stringify(r).slice(0, 200)}: ${reply.status} ${reply.error}`);
    process.exit(1);
  }
  return reply.body;
}

/** What-ifs on the first open cells of `a` (the CLI's analysis of `text`): the deals left are the cell's. */
function whatIfs(name, text, a) {
  if (!a.consistent) return;
  const open = Object.entries(a.status).flatMap(([card, row]) => Object.entries(row).filter(([, s]) => s === "maybe").map(([p]) => [card, p]));
  for (const [card, place] of open.slice(0, 2)) {
    for (const holds of [true, false]) {
      const body = JSON.stringify({ game: JSON.parse(text), suppose: [{ card, place, holds }] });
      const w = request({ op: "what_if", body });
      const at = BigInt(a.models_by_place[card][place]);
      const want = { models: String(holds ? at : BigInt(a.models) - at), status: holds ? "yes" : "no" };
      same(`${name} what-if ${card} ${holds ? "at" : "not at"} ${place}`, { json: JSON.stringify({ models: w.models, status: w.status[card][place] }) }, { json: JSON.stringify(want) });
    }
  }
}

for (const file of games) {
  const text = readFileSync(file, "utf8");
  const name = path.basename(file);
  same(`${name} analyze`, engine(() => sleuth.analyze(text)), command(cli(["analyze", "--json", "-"], text)));
  same(`${name} check`, engine(() => sleuth.check(text)), command(cli(["check", "--json", "-"], text)));
  same(`${name} advise`, engine(() => sleuth.advise(text)), command(cli(["advise", "--json", "-"], text)), true);
  // A few facts: certain ones (explained) and open ones, from the analysis.
  const analysis = engine(() => sleuth.analyze(text));
  const facts = [["no-such-card", "case_file"]];
  if (analysis.json) {
    const a = JSON.parse(analysis.json);
    const cells = Object.entries(a.status).flatMap(([card, row]) => Object.entries(row).map(([p, s]) => [card, p, s]));
    for (const kind of ["yes", "no", "maybe"]) {
      const cell = cells.filter((c) => c[2] === kind && !a.face_up.includes(c[0]));
      if (cell.length) facts.push(cell[Math.floor(cell.length / 2)].slice(0, 2));
    }
    facts.push([cells[0][0], "nobody"]);
  }
  if (analysis.json) whatIfs(name, text, JSON.parse(analysis.json));
  const advice = command(cli(["advise", "--json", "-"], text));
  if (advice.json) {
    for (const best of (JSON.parse(advice.json).suggestions || []).slice(0, 3)) {
      const body = JSON.stringify({ game: JSON.parse(text), cards: best.cards });
      const mine = request({ op: "evaluate", body });
      // Where it stands in advise's list (`same_answers_as`) is not part of a suggestion's evaluation.
      const listed = { ...best, same_answers_as: null };
      same(`${name} evaluate ${best.cards}`, { json: canonical(mine) }, { json: canonical(listed) }, true);
    }
  }
  for (const [card, place] of facts) {
    same(
      `${name} why ${card} ${place}`,
      engine(() => sleuth.why(text, card, place)),
      command(cli(["why", "--json", "-", card, place], text)),
    );
  }
}
console.log(
  `${compared} answers of ${games.length} games: the WebAssembly engine and the command line agree` +
    (lastBit ? ` (${lastBit} advice numbers in the last bit)` : ""),
);
