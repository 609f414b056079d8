// The notepad at the table, on phones 360×740 and 390×844: the case-file
// column legible, what a turn taught and the notepad in view after it, Redo
// in the bar, the privacy hide, the start's equal case files collapsed, the
// game over, out after my own wrong accusation, and the what-if (a
// supposition, and each answer to a planned suggestion), every number equal
// to the engine's analysis of the game with the fact written as a turn
// (SLEUTH_WHAT_IF, from tests/it/e2e.rs: the sample's first 12 turns). Run by tests/it/e2e.rs.
import { readFileSync } from 'node:fs';
import { run, check, createGame, stored, api, sample, settled, inView, names, NAME, URL } from './lib.mjs';

const PHONES = [{ width: 360, height: 740 }, { width: 390, height: 844 }];
const whatIf = JSON.parse(readFileSync(process.env.SLEUTH_WHAT_IF, 'utf8'));

/** What the page shows in a cell (the rule of app.js's percent, checked against the CLI's in e2e.rs). */
function cellText(p, status) {
  if (status === 'yes') return 'O';
  if (status === 'no') return 'X';
  const v = p * 100;
  if (v < 1) return '<1%';
  if (v > 99) return '>99%';
  return `${Math.round(v)}%`;
}

/** Every cell of the page's notepad, against an analysis: its text and its exact percentage (the cell's title). */
async function sameNotepad(page, a, label) {
  const cells = await page.$$eval('#notepad td.cell', (tds) => tds.map((td) => [td.dataset.card, td.dataset.place, td.textContent, td.title]));
  check(cells.length === Object.keys(a.status).length * a.places.length, `${label}: ${cells.length} cells`);
  for (const [card, place, text, title] of cells) {
    const p = a.probabilities[card][place];
    check(text === cellText(p, a.status[card][place]), `${label}: ${card} at ${place} shows ${text}, the engine ${p}`);
    check(title.endsWith(`${(p * 100).toFixed(2)}%`), `${label}: ${card} at ${place}: ${title}, the engine ${p}`);
  }
  const models = await page.textContent('#models');
  check(models === BigInt(a.models).toLocaleString('en-US'), `${label}: ${models} deals, the engine ${a.models}`);
}

/** Opens game `id` on a fresh phone page and waits for its notepad and advice. */
async function open(browser, watch, viewport, id) {
  const page = watch(await (await browser.newContext({ viewport, deviceScaleFactor: 2, isMobile: true, hasTouch: true })).newPage());
  await page.goto(`${URL}#/game/${id}`);
  const { version } = await stored(id);
  await page.waitForSelector(`#notepad[data-version="${version}"]`);
  await page.waitForSelector(`#advice-body[data-version="${version}"]`);
  return page;
}

await run(async (browser, watch) => {
  for (const viewport of PHONES) {
    const at = `${viewport.width}×${viewport.height}`;
    const game = await createGame(12, `At the table ${at}`);
    const id = game.id;
    let v = game.version;
    const P = await open(browser, watch, viewport, id);

    // ---- the case-file column: on screen, its text whole, the page not wider than the phone
    const column = await P.$$eval('#notepad .case', (els) => els.map((el) => {
      const r = el.getBoundingClientRect();
      return { text: el.textContent, left: r.left, right: r.right, clipped: el.scrollWidth > el.clientWidth };
    }));
    check(column.length === 22, `${at}: a header and 21 cells in the case-file column: ${column.length}`);
    for (const c of column) {
      check(c.left >= 0 && c.right <= viewport.width + 0.5, `${at}: the case-file cell "${c.text}" is on screen (${c.left}..${c.right})`);
      check(!c.clipped, `${at}: the case-file cell "${c.text}" is not cut`);
    }
    check(await P.evaluate(() => document.documentElement.scrollWidth) <= viewport.width, `${at}: the page does not scroll sideways`);
    const cells = await P.$$eval('#notepad td.cell', (tds) => tds.filter((td) => td.scrollWidth > td.clientWidth).map((td) => td.textContent));
    check(cells.length === 0, `${at}: cut cells: ${cells}`);

    // ---- what-if: suppose mu holds an open card; the numbers are the engine's for the game with that turn
    const before = (await api('GET', `/api/games/${id}/analysis`)).body;
    check(before.status[whatIf.card].mu === 'maybe', `${at}: ${whatIf.card} at mu is open`);
    await P.tap(`#notepad td[data-card="${whatIf.card}"][data-place="mu"]`);
    await P.waitForSelector('#suppose-fact');
    const chance = await P.textContent('#suppose-fact');
    check(chance.includes(`${(before.probabilities[whatIf.card].mu * 100).toFixed(2)}%`), `${at}: the cell's exact chance: ${chance}`);
    await P.tap('#why button.suppose-yes');
    await P.waitForSelector('#notepad[data-what-if="1"]');
    check(await P.isVisible('#what-if') && await inView(P, '#what-if'), `${at}: the what-if banner is on screen`);
    const banner = await P.textContent('#what-if-text');
    check(banner.startsWith(`What-if, not a turn: mu holds ${NAME[whatIf.card]}.`), `${at}: what-if: ${banner}`);
    check(await P.evaluate(() => document.body.classList.contains('in-what-if')), `${at}: the page is marked as a what-if`);
    await sameNotepad(P, whatIf.analysis, `${at} what-if`);
    check((await stored(id)).events.length === 12, `${at}: a what-if adds no turn`);
    for (const where of ['document.documentElement.scrollHeight / 2', 'document.documentElement.scrollHeight']) {
      await P.evaluate(`window.scrollTo(0, ${where})`);
      check(await inView(P, '#what-if-leave', true), `${at}: scrolled to ${where}, the what-if's way out is on screen`);
      check((await P.textContent('#what-if-short')) === `What-if: mu holds ${NAME[whatIf.card]}`, `${at}: and says what is supposed`);
    }
    await P.tap('#what-if-leave');
    check(await P.isHidden('#what-if') && await P.isHidden('#what-if-bar'), `${at}: one tap leaves the what-if`);
    await sameNotepad(P, before, `${at} after the what-if`);

    // ---- what would a reply tell me: every answer to the advice's best suggestion, then one answer's notepad
    const advice = (await api('GET', `/api/games/${id}/advice`)).body;
    const best = advice.suggestions[0];
    // One item per choice, "A or B" where cards nobody else can show give the same answers (li/st here)
    await P.waitForSelector(`#advice-body[data-version="${v}"]`);
    const items = await P.$$eval('#advice-suggest li', (lis) => lis.map((li) => [li.dataset.cards, li.querySelector('strong').textContent]));
    const either = (s) => s.cards.map((c, k) => [c, ...s.alternatives[k]].map((x) => NAME[x]).join(' or ')).join(', ');
    const choices = advice.suggestions.filter((s) => s.same_answers_as === null).map((s) => [s.cards.join(','), either(s)]);
    check(JSON.stringify(items) === JSON.stringify(choices), `${at}: one item per choice: ${JSON.stringify(items)} vs ${JSON.stringify(choices)}`);
    check(choices.some(([, text]) => text.includes(' or ')) && await P.isVisible('#advice-either'), `${at}: either of two cards, said once: ${JSON.stringify(choices)}`);
    // How many suggestions were evaluated exactly, of how many legal ones, as the API says
    const basis = await P.textContent('#advice-suggest-basis');
    const counted = advice.evaluated >= advice.legal ? `all ${advice.legal} legal suggestions` : `${advice.evaluated} of the ${advice.legal} legal suggestions`;
    check(advice.legal > 0 && basis.includes(counted), `${at}: the page says what was evaluated: ${basis} (${counted})`);
    await P.tap('#advice-suggest li:first-child button.plan-this');
    await P.waitForSelector(`#plan-answer[data-cards="${best.cards.join(',')}"]`);
    const rows = await P.$$eval('#plan-outcomes li', (lis) => lis.map((li) => [li.dataset.refuter, li.dataset.shown, li.querySelector('.prob').textContent, li.textContent]));
    check(rows.length === best.outcomes.length, `${at}: ${rows.length} answers, the engine ${best.outcomes.length}`);
    rows.forEach(([refuter, shown, prob, text], i) => {
      const o = best.outcomes[i];
      check(refuter === (o.refuter || '') && shown === (o.shown || ''), `${at}: answer ${i}: ${refuter} ${shown}`);
      check(prob === `${(o.probability * 100).toFixed(1)}%`, `${at}: answer ${i}: ${prob}, the engine ${o.probability}`);
      check(text.includes(`the case file then ${o.entropy_after.toFixed(2)} bits`), `${at}: answer ${i}: ${text}`);
    });
    const o = best.outcomes[0];
    await P.tap('#plan-outcomes li:first-child button.plan-see');
    await P.waitForSelector('#notepad[data-what-if="1"]');
    const file = (await stored(id)).file;
    const answer = { by: 'sc', cards: best.cards, refuted_by: o.refuter };
    if (o.shown) answer.shown = o.shown;
    const after = (await api('POST', '/api/analyze', { game: { ...file, events: [...file.events, { suggestion: answer }] } })).body;
    await sameNotepad(P, after, `${at} after a planned answer`);
    await P.keyboard.press('Escape');
    check(await P.isHidden('#what-if'), `${at}: Escape leaves the what-if`);

    // ---- a wide table (master deck, 8 players) scrolls sideways inside its box; the case-file column stays on screen
    const wide = await api('POST', `/api/games?name=${encodeURIComponent(`Wide ${at}`)}`,
      { version: 1, deck: 'master', players: ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'], events: [] });
    check(wide.status === 201, `create: ${wide.status}`);
    const W = await open(browser, watch, viewport, wide.body.id);
    for (const scroll of [0, 10000]) {
      await W.$eval('.table-wrap', (el, x) => { el.scrollLeft = x; }, scroll);
      const caseCells = await W.$$eval('#notepad .case', (els) => els.map((el) => {
        const r = el.getBoundingClientRect();
        return { text: el.textContent, left: r.left, right: r.right, clipped: el.scrollWidth > el.clientWidth };
      }));
      check(caseCells.length === 31 && caseCells.every((c) => c.left >= 0 && c.right <= viewport.width + 0.5 && !c.clipped),
        `${at}: master, 8 players, scrolled to ${scroll}: the case-file column on screen: ${JSON.stringify(caseCells.slice(0, 2))}`);
    }
    check(await W.evaluate(() => document.documentElement.scrollWidth) <= viewport.width, `${at}: the wide page does not scroll sideways`);

    // ---- after a turn: what it taught at the top of the screen, the notepad right under it
    await P.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await P.tap('#nav-turn');
    const turn = sample.events[12].suggestion;
    for (const [i, c] of turn.cards.entries()) await P.selectOption(`#turn-card-${i}`, c);
    await P.selectOption('#turn-shown', turn.shown);
    await P.tap('#turn-submit');
    await P.waitForSelector(`#lesson[data-version="${++v}"]`);
    const [lessonTop, notepadTop] = await P.evaluate(() => ['lesson', 'notepad'].map((x) => document.getElementById(x).getBoundingClientRect().top));
    check(lessonTop >= -1 && lessonTop < 60, `${at}: the lesson is at the top of the screen (${lessonTop})`);
    check(notepadTop > lessonTop && notepadTop < viewport.height - 240, `${at}: the notepad follows, its first rows on screen above the bar (${notepadTop})`);
    check(await inView(P, '#lesson', true), `${at}: the lesson is whole on screen`);

    // ---- Undo and Redo side by side in the bar
    await settled(P);
    const [undoBox, redoBox] = [await P.locator('#bar-undo').boundingBox(), await P.locator('#bar-redo').boundingBox()];
    check(Math.abs(undoBox.y - redoBox.y) < 2 && redoBox.x > undoBox.x, `${at}: Redo next to Undo`);
    check(await P.isDisabled('#bar-redo'), `${at}: nothing to redo yet`);
    await P.tap('#bar-undo');
    await P.waitForSelector(`#notepad[data-version="${++v}"]`);
    check((await stored(id)).events.length === 12, `${at}: the bar's Undo took the turn back`);
    await settled(P);
    await P.tap('#bar-redo');
    await P.waitForSelector(`#notepad[data-version="${++v}"]`);
    check((await stored(id)).events.length === 13, `${at}: the bar's Redo restored it`);

    // ---- one tap hides the hand, the notepad, the case files and the advice; one tap shows them again
    await settled(P);
    const secret = ['#notepad', '#case-files', '#advice', '#events', '#lesson'];
    await P.tap('#bar-hide');
    for (const sel of secret) check(await P.isHidden(sel), `${at}: hidden: ${sel}`);
    check(await P.isVisible('#show') && await inView(P, '#bar-hide'), `${at}: the way back is on screen`);
    check(await P.getAttribute('#bar-hide', 'aria-pressed') === 'true', `${at}: the bar says the notepad is hidden`);
    await P.tap('#bar-hide');
    for (const sel of ['#notepad', '#case-files', '#advice']) check(await P.isVisible(sel), `${at}: shown again: ${sel}`);
    await P.tap('#hide');
    check(await P.isHidden('#notepad'), `${at}: the header's Hide hides too`);
    await P.tap('#show');
    check(await P.isVisible('#notepad'), `${at}: and Show shows`);

    // ---- Delete names its turn by id; a second tap where it was, after the buttons woke up again, deletes nothing
    await settled(P);
    const doomed = P.locator('#events li[data-index="2"] button.delete');
    await doomed.scrollIntoViewIfNeeded();
    const spot = await doomed.boundingBox();
    const ids = (await stored(id)).events.map((e) => e.id);
    const deletes = [];
    P.on('request', (r) => { if (r.method() === 'DELETE') deletes.push(new globalThis.URL(r.url()).pathname); });
    await P.mouse.click(spot.x + spot.width / 2, spot.y + spot.height / 2);
    await P.waitForSelector(`#notepad[data-version="${++v}"]`);
    await settled(P);
    await P.waitForTimeout(150);
    await P.mouse.click(spot.x + spot.width / 2, spot.y + spot.height / 2);
    await P.waitForTimeout(800);
    check(deletes.length === 1 && deletes[0] === `/api/games/${id}/events/${ids[2]}`, `${at}: one delete, of turn 3 by its id: ${deletes}`);
    check((await stored(id)).events.map((e) => e.id).join() === ids.filter((_, i) => i !== 2).join(), `${at}: only turn 3 is gone`);
    check((await P.textContent('#events li.deleted')).startsWith('Turn 3 deleted:'), `${at}: the deleted turn's line says so`);

    // ---- the start: its many equal case files are one line, and the advice is near
    const start = await createGame(0, `Start ${at}`);
    const S = await open(browser, watch, viewport, start.id);
    const a0 = (await api('GET', `/api/games/${start.id}/analysis`)).body;
    const runs = await S.$$eval('#case-files > li', (lis) => lis.map((li) => [li.className, li.dataset.count, li.textContent]));
    const each = `${(a0.case_file[0].probability * 100).toFixed(2)}%`;
    check(runs.length === 1 && runs[0][0] === 'case-run' && Number(runs[0][1]) === a0.case_file_count
      && runs[0][2].includes(`${a0.case_file_count} case files, each ${each}`), `${at}: the start's case files in one line: ${JSON.stringify(runs)}`);
    const adviceTop = await S.evaluate(() => document.getElementById('advice').getBoundingClientRect().top - document.getElementById('case-files').getBoundingClientRect().top);
    check(adviceTop < 400, `${at}: the advice is ${adviceTop}px below the case files`);

    await S.tap('#case-files summary');
    check(await S.locator('#case-files details li[data-cards]').count() === a0.case_file.length, `${at}: the line opens to list them`);

    // ---- the game over after a correct accusation
    const over = await createGame(sample.events.length, `Over ${at}`);
    const O = await open(browser, watch, viewport, over.id);
    const acc = sample.events[sample.events.length - 1].accusation;
    check((await O.textContent('#game-over')).startsWith(`Game over: ${acc.by} accused ${names(acc.cards)} correctly`), `${at}: game over`);
    check(await O.isHidden('#turn') && await O.isHidden('#nav-turn'), `${at}: no turn form after the game is over`);
    check(await O.locator('#advice-accuse').count() === 0 && (await O.textContent('#advice-body')).startsWith('The game is over'), `${at}: no "Accuse now"`);

    // ---- out after my own wrong accusation: I still refute, the advice suggests nothing
    const outFile = { ...sample, events: [{ accusation: { by: 'sc', cards: ['pl', 'kn', 'ha'], correct: false } }, ...sample.events.slice(1, 12)] };
    const made = await api('POST', `/api/games?name=${encodeURIComponent(`Out ${at}`)}`, outFile);
    check(made.status === 201, `create: ${made.status}`);
    const X = await open(browser, watch, viewport, made.body.id);
    const said = await X.textContent('#advice-body');
    check(said.startsWith('You are out: your accusation was wrong'), `${at}: out: ${said}`);
    check(await X.locator('#advice-suggest li, #advice-accuse').count() === 0 && await X.isHidden('#plan'), `${at}: no moves suggested when out`);
    check(await X.inputValue('#turn-by') === 'mu', `${at}: the next suggester skips me (out): ${await X.inputValue('#turn-by')}`);
    check(await X.isVisible('#ask'), `${at}: I still refute`);
    await X.selectOption('#ask-by', 'gr');
    for (const [i, c] of ['wh', 'pi', 'st'].entries()) await X.selectOption(`#ask-card-${i}`, c);
    await X.tap('#ask button[type="submit"]');
    await X.waitForFunction(() => document.getElementById('ask-answer').dataset.card);
    check(['wh', 'st'].includes(await X.getAttribute('#ask-answer', 'data-card')), `${at}: which card to show, when out`);
  }
  console.log(JSON.stringify({ table: 'ok' }));
});
