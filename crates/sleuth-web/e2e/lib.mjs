// What the end-to-end scripts share: the environment that tests/it/e2e.rs
// passes (SLEUTH_URL, SLEUTH_SAMPLE, SLEUTH_CHROMIUM, SLEUTH_SCREENSHOTS),
// the browser, checks, and the JSON API spoken directly (to set a game up
// and to read what the server stored, independently of the page).
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

export const URL = process.env.SLEUTH_URL;
export const sample = JSON.parse(readFileSync(process.env.SLEUTH_SAMPLE, 'utf8'));
export const shots = process.env.SLEUTH_SCREENSHOTS || '';
export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

export function check(cond, message) {
  if (!cond) throw new Error(`check failed: ${message}`);
}

/** Calls the server's API; answers {status, body, etag}. */
export async function api(method, path, body, headers = {}) {
  const res = await fetch(new globalThis.URL(path, URL), {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch (_) { /* empty or not JSON */ }
  return { status: res.status, body: json, etag: res.headers.get('etag') };
}

/** Creates a game through the API: the sample with its first `events` turns. */
export async function createGame(events, name) {
  const file = { ...sample, events: sample.events.slice(0, events) };
  const r = await api('POST', `/api/games${name ? '?name=' + encodeURIComponent(name) : ''}`, file);
  check(r.status === 201, `create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The game as the server has it now. */
export async function stored(id) {
  const r = await api('GET', `/api/games/${id}`);
  check(r.status === 200, `get ${id}: ${r.status}`);
  return r.body;
}

// The page shows card names; the classic deck's names by id, from the server.
const decks = (await api('GET', '/api/decks')).body;
export const NAME = Object.fromEntries(decks.classic.flatMap((cat) => cat.cards.map((c) => [c.id, c.name])));
export const names = (ids) => ids.map((id) => NAME[id]).join(', ');

/** Whether the whole of `selector`'s first element is inside the window (less the phone's bottom bar when `bar`). */
export async function inView(page, selector, bar = false) {
  return page.$eval(selector, (el, bar) => {
    const r = el.getBoundingClientRect();
    const barEl = document.getElementById('turn-bar');
    const bottom = bar && barEl && barEl.getClientRects().length ? barEl.getBoundingClientRect().top : innerHeight;
    return r.height > 0 && r.top >= -1 && r.bottom <= bottom + 1 && r.left >= -1 && r.right <= innerWidth + 1;
  }, bar);
}

/** Waits until the change buttons are awake again (a change answered and settled). */
export async function settled(page) {
  await page.waitForSelector('body:not([data-busy="1"])', { state: 'attached' });
}

/**
 * Runs `main(browser, watch)` in a fresh headless Chromium; `watch(page)`
 * collects a page's script errors, which fail the run. On a failure the
 * pages' message boxes are printed.
 */
export async function run(main) {
  const browser = await chromium.launch({
    executablePath: process.env.SLEUTH_CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const pages = [];
  const errors = [];
  const watch = (page) => {
    pages.push(page);
    page.setDefaultTimeout(15000);
    page.on('pageerror', (e) => errors.push(String(e)));
    return page;
  };
  try {
    await main(browser, watch);
    check(errors.length === 0, `errors in the page: ${errors.join('; ')}`);
  } catch (e) {
    for (const p of pages) {
      const said = await p.textContent('#error').catch(() => '?');
      console.error(`page ${p.url()} says: ${said}`);
    }
    console.error(`page errors: ${errors.join('; ')}`);
    throw e;
  } finally {
    await browser.close();
  }
}
