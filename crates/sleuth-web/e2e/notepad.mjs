// End-to-end test of the sleuth serve notepad in a real headless Chromium,
// driven by playwright-core with the system's browser (no browser download).
// Run by crates/sleuth-web/tests/it/e2e.rs, which starts the server and
// passes, in the environment:
//   SLEUTH_URL        the server's URL
//   SLEUTH_SAMPLE     testdata/seed-sat-sample.json
//   SLEUTH_EXPECTED   {card: {place: "O" | "X" | "37%"}}: the notepad as sleuth-core computes it
//   SLEUTH_CHROMIUM   the browser to drive
//   SLEUTH_SCREENSHOTS optional: a directory for notepad-desktop.png and notepad-advice.png (phone.mjs takes notepad-phone.png)
// Prints one JSON line of timings; exits non-zero on the first failed check.
import { chromium } from 'playwright-core';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const URL = process.env.SLEUTH_URL;
const sample = JSON.parse(readFileSync(process.env.SLEUTH_SAMPLE, 'utf8'));
const expected = JSON.parse(readFileSync(process.env.SLEUTH_EXPECTED, 'utf8'));
const shots = process.env.SLEUTH_SCREENSHOTS || '';

function check(cond, message) {
  if (!cond) throw new Error(`check failed: ${message}`);
}

// The page shows card names; the classic deck's names by id, from the server.
const decks = await (await fetch(new globalThis.URL('api/decks', URL))).json();
const NAME = Object.fromEntries(decks.classic.flatMap((cat) => cat.cards.map((c) => [c.id, c.name])));
const names = (ids) => ids.map((id) => NAME[id]).join(', ');

const browser = await chromium.launch({
  executablePath: process.env.SLEUTH_CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
  // Playwright itself starts the browser with a fresh, empty profile directory.
});
let page = null;
const pageErrors = [];
const timings = { turn_ms: [], page_ms: [], frame_ms: [], request_ms: [], server_change_ms: [], server_total_ms: [], analysis_ms: [] };
try {
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 1000 } });
  page = await ctx.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.setDefaultTimeout(15000);

  // ---- set up the sample game through the form
  await page.goto(URL);
  await page.click('#nav-new');
  await page.fill('#setup-players', sample.players.join(' '));
  await page.selectOption('#setup-me', sample.me);
  for (const card of sample.hand) await page.check(`#setup-hand input[value="${card}"]`);
  for (let i = 0; i < sample.players.length; i++) {
    check(await page.inputValue(`#setup-size-${i}`) === '3', 'classic, 6 players: 3 cards each by the dealing rule');
  }
  await page.click('#setup-create');
  await page.waitForSelector('#notepad[data-version="0"]');
  const gameUrl = page.url();
  check(/#\/game\/game-[0-9a-f]+$/.test(gameUrl), `game URL ${gameUrl}`);

  // ---- enter every turn: one request per turn (the change answers with the analysis)
  const requests = [];
  page.on('request', (r) => requests.push(`${r.method()} ${new globalThis.URL(r.url()).pathname}`));
  async function enterTurn(spec) {
    const kind = Object.keys(spec)[0];
    const e = spec[kind];
    await page.selectOption('#turn-kind', kind);
    await page.selectOption('#turn-by', e.by);
    for (let i = 0; i < e.cards.length; i++) await page.selectOption(`#turn-card-${i}`, e.cards[i]);
    if (kind === 'suggestion') {
      await page.selectOption('#turn-refuted', e.refuted_by || '');
      if (e.shown) await page.selectOption('#turn-shown', e.shown);
    } else if (e.correct) {
      await page.check('#turn-correct');
    }
  }
  const accusation = sample.events[sample.events.length - 1].accusation;
  async function gameIsOver() {
    await page.waitForSelector('#game-over:not(.hidden)');
    const over = await page.textContent('#game-over');
    check(over.startsWith(`Game over: ${accusation.by} accused ${names(accusation.cards)} correctly (turn ${sample.events.length}).`), `game over: ${over}`);
    check(await page.isHidden('#turn') && await page.isHidden('#nav-turn'), 'no turn form after the game is over');
    check(await page.textContent('#advice-body') === `The game is over: ${accusation.by} accused correctly.`, 'no advice after the game is over');
    check(await page.locator('#advice-accuse').count() === 0, 'no "Accuse now" after the game is over');
  }
  for (let i = 0; i < sample.events.length; i++) {
    await enterTurn(sample.events[i]);
    const t0 = Date.now();
    await page.click('#turn-submit');
    await page.waitForSelector(`#notepad[data-version="${i + 1}"]`);
    timings.turn_ms.push(Date.now() - t0);
    await page.waitForSelector(`body[data-frame-version="${i + 1}"]`);
    timings.page_ms.push(Number(await page.getAttribute('body', 'data-update-ms')));
    timings.frame_ms.push(Number(await page.getAttribute('body', 'data-frame-ms')));
    // The request as the browser timed it, and the server's own Server-Timing parts.
    const [requestMs, server] = await page.evaluate(() => {
      const r = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/events')).pop();
      return [r.responseEnd - r.startTime, Object.fromEntries(r.serverTiming.map((t) => [t.name, t.duration]))];
    });
    check(server.change > 0, `Server-Timing of the change: ${JSON.stringify(server)}`);
    timings.request_ms.push(requestMs);
    timings.server_change_ms.push(server.change);
    timings.server_total_ms.push(server.change + server.analysis);
    timings.analysis_ms.push(Number((await page.textContent('#status')).match(/analysed in ([0-9.]+) ms/)[1]));
    // The advice after every turn: the exact chance first, and never "Accuse now" on a long shot
    // (below even odds) nor for a case file that is not the most likely.
    await page.waitForSelector(`#advice-body[data-version="${i + 1}"]`);
    if (i === sample.events.length - 1) {
      // sc's correct accusation, the last turn, ends the game: said so, and no more turn form nor advice.
      await gameIsOver();
      continue;
    }
    const accuse = await page.textContent('#advice-accuse');
    const exact = accuse.match(/exact chance ([0-9.]+)%/);
    const certain = accuse.endsWith('(certain).');
    check(certain || exact, `advice without its exact chance: ${accuse}`);
    check(!accuse.startsWith('Accuse now') || certain || Number(exact[1]) >= 50, `a long shot urged after turn ${i + 1}: ${accuse}`);
    const guess = accuse.match(/case file, ([A-Za-z,. ]+), has exact|Accuse now: ([A-Za-z,. ]+?)(?: \(certain\)\.|, exact chance)/);
    check(guess && !(guess[1] || guess[2]).split(', ').some((c) => sample.hand.map((id) => NAME[id]).includes(c)), `advice accuses with my own card: ${accuse}`);
    if (!certain) check(/^Why: .+ (knows|can know) the case file .+ estimated from deals/.test(await page.textContent('#advice-why')), 'the advice says what the risk rests on');
    if (i === 11) {
      // The advice panel mid-game: not certain, and the exact chance is far below even odds.
      check(accuse.startsWith('Do not accuse yet'), `advice at turn 12: ${accuse}`);
      const suggestions = await page.$$eval('#advice-suggest li', (lis) => lis.map((li) => li.textContent));
      check(suggestions.length > 0 && suggestions.every((t) => /bits expected, ends the game with chance \d+%/.test(t)), `suggestions: ${suggestions}`);
      check(await page.locator('#advice-opponents li').count() === sample.players.length - 1, 'one line per opponent');
    }
    if (shots && i === 11) {
      // The README's screenshots: a game in progress on a desktop, and its advice.
      mkdirSync(shots, { recursive: true });
      await page.waitForSelector('body:not([data-busy="1"])', { state: 'attached' });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(shots, 'notepad-desktop.png') });
      await page.locator('#advice').screenshot({ path: join(shots, 'notepad-advice.png') });
    }
  }
  const n = sample.events.length;
  check(await page.locator('#events li[data-index]').count() === n, 'every turn is listed');
  const analysisGets = requests.filter((r) => r.endsWith('/analysis'));
  check(analysisGets.length === 0, `the notepad was redrawn from the change's answer, yet the page asked ${analysisGets.length} times for the analysis`);
  check(requests.filter((r) => r.startsWith('POST') && r.endsWith('/events')).length === n, 'one POST per turn');

  // ---- the notepad shows the core's analysis, cell by cell
  async function checkNotepad(label) {
    const cells = await page.$$eval('#notepad td.cell', (tds) => tds.map((td) => [td.dataset.card, td.dataset.place, td.textContent]));
    let count = 0;
    for (const [card, place, text] of cells) {
      check(expected[card][place] === text, `${label}: ${card} at ${place} shows ${text}, expected ${expected[card][place]}`);
      count++;
    }
    check(count === Object.keys(expected).length * (sample.players.length + 1), `${label}: ${count} cells`);
    const first = await page.textContent('#case-files li:first-child');
    check(first.includes('100.0%') && first.includes(names(['pe', 'pi', 'bi'])), `${label}: case file ${first}`);
  }
  await checkNotepad('after all turns');
  // ---- which card to show: gr asks about wh, which sc showed gr before
  await page.selectOption('#ask-by', 'gr');
  for (const [i, c] of ['wh', 'pi', 'st'].entries()) await page.selectOption(`#ask-card-${i}`, c);
  await page.click('#ask button[type="submit"]');
  await page.waitForSelector('#ask-answer[data-card="wh"]');
  const answer = await page.textContent('#ask-answer');
  check(answer.startsWith('Show Mrs. White (wh): gr has seen it already'), `which card to show: ${answer}`);
  check(await page.isHidden('#conflict'), 'no contradiction in the sample game');

  // ---- why: click a certain cell
  await page.click('#notepad td[data-card="pe"][data-place="case_file"]');
  await page.waitForSelector('#why-list li');
  const why = await page.textContent('#why');
  check(why.includes('Why Mrs. Peacock (pe) is in the case file') && why.includes('turn 28: '), `why: ${why}`);
  check(!why.includes('null'), `no "null" in the why box: ${why}`);

  // ---- undo and redo the accusation: before it the case file is certain, and the advice says accuse at once
  await page.click('#undo');
  await page.waitForSelector(`#notepad[data-version="${n + 1}"]`);
  check(await page.locator('#events li[data-index]').count() === n - 1, 'undo removed the last turn');
  check(await page.isHidden('#game-over') && await page.isVisible('#turn'), 'the game goes on again, with its turn form');
  await page.waitForSelector(`#advice-body[data-version="${n + 1}"]`);
  const accuseNow = await page.textContent('#advice-accuse');
  check(accuseNow === `Accuse now: ${names(['pe', 'pi', 'bi'])} (certain).`, `advice: ${accuseNow}`);
  await page.click('#redo');
  await page.waitForSelector(`#notepad[data-version="${n + 2}"]`);
  check(await page.locator('#events li[data-index]').count() === n, 'redo restored it');
  await page.waitForSelector(`#advice-body[data-version="${n + 2}"]`);
  await gameIsOver();
  await checkNotepad('after undo and redo');

  // ---- edit a turn: turn 1 was refuted by pe; make it wh, then back
  let version = n + 2;
  await page.click('#events li[data-index="1"] button.edit');
  check(await page.inputValue('#turn-refuted') === 'pe', 'the edit form is filled with the turn');
  await page.selectOption('#turn-refuted', 'wh');
  await page.click('#turn-submit');
  await page.waitForSelector(`#notepad[data-version="${++version}"]`);
  const edited = await page.textContent('#events li[data-index="1"] .event-text');
  check(edited === 'mu suggested Mrs. Peacock, Lead Pipe, Dining Room; wh refuted (card not seen)', `edited turn: ${edited}`);
  check(await page.locator('#events li[data-index]').count() === n, 'an edit adds no turn');
  await page.keyboard.press('Control+z');
  await page.waitForSelector(`#notepad[data-version="${++version}"]`);
  const restored = await page.textContent('#events li[data-index="1"] .event-text');
  check(restored === 'mu suggested Mrs. Peacock, Lead Pipe, Dining Room; pe refuted (card not seen)', `undone edit: ${restored}`);
  check(await page.isHidden('#turn'), 'the game is over again once the edit is done');

  // ---- the game goes on (the accusation deleted) for the next checks; it is entered again after them
  await page.waitForSelector('body:not([data-busy="1"])', { state: 'attached' });
  await page.click(`#events li[data-index="${n - 1}"] button.delete`);
  await page.waitForSelector(`#notepad[data-version="${++version}"]`);

  // ---- a contradiction: wh "refuted" the three cards of the (certain) case file
  await enterTurn({ suggestion: { by: 'mu', cards: ['pe', 'pi', 'bi'], refuted_by: 'wh' } });
  await page.click('#turn-submit');
  await page.waitForSelector(`#notepad[data-version="${++version}"]`);
  await page.waitForSelector('#conflict:not(.hidden)');
  const conflict = await page.textContent('#conflict');
  check(conflict.includes('Contradiction') && conflict.includes(`turn ${n}: mu suggested Mrs. Peacock, Lead Pipe, Billiard Room; wh refuted (card not seen)`), `conflict: ${conflict}`);
  check(await page.evaluate(() => document.activeElement.id) === 'conflict', 'the new contradiction has the focus');
  check(await page.getAttribute(`#events li[data-index="${n - 1}"]`, 'class') === 'conflict', 'the conflicting turn is highlighted');
  check(await page.locator('#events li[data-index]').count() === n, 'the contradicting turn is kept');
  await page.waitForSelector('body:not([data-busy="1"])', { state: 'attached' });
  await page.click(`#events li[data-index="${n - 1}"] button.delete`);
  await page.waitForSelector(`#notepad[data-version="${++version}"]`);
  check(await page.isHidden('#conflict'), 'deleting the wrong turn resolves the contradiction');

  // ---- keyboard alone: a turn typed without the mouse, then undone
  await page.waitForSelector('body:not([data-busy="1"])', { state: 'attached' });
  await page.focus('#turn-kind');
  await page.keyboard.press('Tab'); // suggester
  await page.keyboard.type('mu');
  for (const code of ['pl', 'ro', 'ki']) {
    await page.keyboard.press('Tab');
    await page.keyboard.type(code);
  }
  await page.keyboard.press('Tab'); // refuted by
  await page.keyboard.type('wh');
  await page.keyboard.press('Tab'); // the submit button (the shown card is hidden: sc did not see it)
  check(await page.evaluate(() => document.activeElement.id) === 'turn-submit', `tab order reaches the submit button: ${await page.evaluate(() => document.activeElement.outerHTML.slice(0, 200))}`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`#notepad[data-version="${++version}"]`);
  const typed = await page.textContent(`#events li[data-index="${n - 1}"] .event-text`);
  check(typed === 'mu suggested Professor Plum, Rope, Kitchen; wh refuted (card not seen)', `typed turn: ${typed}`);
  await page.keyboard.press('Control+z');
  await page.waitForSelector(`#notepad[data-version="${++version}"]`);

  // ---- the accusation again: the game is over, as the sample's
  await page.waitForSelector('body:not([data-busy="1"])', { state: 'attached' });
  await enterTurn(sample.events[n - 1]);
  await page.click('#turn-submit');
  await page.waitForSelector(`#notepad[data-version="${++version}"]`);
  await page.waitForSelector(`#advice-body[data-version="${version}"]`);
  await gameIsOver();

  // ---- reload: the game is intact
  await page.reload();
  await page.waitForSelector(`#notepad[data-version="${version}"]`);
  check(await page.locator('#events li[data-index]').count() === n, 'all turns after reload');
  await checkNotepad('after reload');

  // ---- the list of games, and an import of the sample's game file
  await page.goto(URL + '#/');
  await page.waitForSelector('#game-list a');
  check(await page.locator('#game-list a').count() === 1, 'one game listed');
  check((await page.textContent('#game-list li')).includes(`${n} turns`), 'the list counts the turns');
  await page.setInputFiles('#import', process.env.SLEUTH_SAMPLE);
  await page.waitForURL((u) => u.hash.startsWith('#/game/') && !gameUrl.endsWith(u.hash));
  await page.waitForSelector('#notepad[data-version="0"]');
  check(await page.locator('#events li[data-index]').count() === n, 'the imported game has every turn');
  await checkNotepad('imported');

  // ---- a phone-sized screen
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const p2 = await phone.newPage();
  await p2.goto(gameUrl);
  await p2.waitForSelector(`#notepad[data-version="${version}"]`);
  const width = await p2.evaluate(() => document.documentElement.scrollWidth);
  const wide = await p2.$$eval('body *', (els) => els.filter((e) => e.getBoundingClientRect().right > 391).map((e) => `${e.tagName}#${e.id}.${e.className}`).slice(0, 8));
  check(width <= 390, `the phone page does not scroll sideways (width ${width}: ${wide.join(' ')})`);
  const small = await p2.$$eval('#turn button, #turn select', (els) => els.filter((e) => e.getClientRects().length && e.getBoundingClientRect().height < 40).length);
  check(small === 0, `${small} controls of the turn form are smaller than a touch target`);
  check(!(await p2.locator('#turn-submit').isVisible()) || !(await p2.evaluate(() => {
    const r = document.getElementById('turn-submit').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  })), 'on a phone the notepad comes first');
  check(await p2.isHidden('#nav-turn'), 'the game is over: the phone bar adds no turn');

  check(pageErrors.length === 0, `errors in the page: ${pageErrors.join('; ')}`);
  const round = (x) => Math.round(x * 10) / 10;
  const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { median: round(s[s.length >> 1]), max: round(s[s.length - 1]) }; };
  const analysis = stats(timings.analysis_ms);
  // Timings are printed, never asserted: speed is measured in benchmarks (BENCHMARKS.md).
  console.log(JSON.stringify({ turns: n, click_to_redraw_ms: stats(timings.page_ms),
    click_to_next_frame_ms: stats(timings.frame_ms), request_ms: stats(timings.request_ms),
    server_ms: stats(timings.server_total_ms), server_change_with_fsync_ms: stats(timings.server_change_ms),
    server_analysis_ms: analysis, with_test_driver_ms: stats(timings.turn_ms) }));
} catch (e) {
  // What the page said when a check failed: its message box and its script errors.
  const said = page ? await page.textContent('#error').catch(() => '?') : '';
  console.error(`page message: ${said}\npage errors: ${pageErrors.join('; ')}`);
  throw e;
} finally {
  await browser.close();
}
