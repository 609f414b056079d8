// The notepad at the table, in a real browser at phone size (390×844) and
// on a desktop (1280×800). Run by tests/it/e2e.rs.
// - A bar at the bottom adds a turn from anywhere on the page.
// - After a turn, what it taught (the cells that became certain, the
//   biggest changes, as the server's analyses before and after say) is in
//   view, with the new turn, numbered, under it.
// - The why box and a contradiction open in view, with the focus, and no
//   "null"; card names wherever the player reads cards.
// - My own turns: on my suggestion the card shown is required and is one
//   I do not hold; when I refute, only my cards are offered; the "which card
//   to show" answer becomes that turn in one tap.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { run, check, createGame, stored, api, sample, settled, inView, names, NAME, shots, URL, DESKTOP, PHONE } from './lib.mjs';

const values = (page, sel) => page.$$eval(`${sel} option`, (os) => os.map((o) => o.value));

/** The cells that became certain between two analyses, as the page words them. */
function newlyCertain(before, after) {
  const out = [];
  for (const [card, row] of Object.entries(after.status)) {
    for (const place of after.places) {
      if (before.status[card][place] !== 'maybe' || row[place] !== 'yes') continue;
      out.push(place === 'case_file' ? `${NAME[card]} is in the case file` : `${place} holds ${NAME[card]}`);
    }
  }
  return out;
}

/** The cell whose probability moved most while staying open. */
function biggestMove(before, after) {
  let best = null;
  for (const [card, row] of Object.entries(after.probabilities)) {
    for (const place of after.places) {
      const d = Math.abs(row[place] - before.probabilities[card][place]);
      if (after.status[card][place] === 'maybe' && d >= 0.005 && (!best || d > best.d)) best = { card, d };
    }
  }
  return best;
}

const analysis = async (id) => (await api('GET', `/api/games/${id}/analysis`)).body;

await run(async (browser, watch) => {
  const game = await createGame(12, 'At the table');
  const id = game.id;
  let v = game.version;
  const P = watch(await (await browser.newContext(PHONE)).newPage());
  const posts = [];
  P.on('request', (r) => { if (r.method() === 'POST') posts.push(new globalThis.URL(r.url()).pathname); });
  await P.goto(`${URL}#/game/${id}`);
  await P.waitForSelector(`#notepad[data-version="${v}"]`);

  // ---- card names in the notepad's rows, on a phone too
  const rowName = P.locator('#notepad th.card-col .name').first();
  check(await rowName.isVisible() && Object.values(NAME).includes(await rowName.textContent()), 'the notepad rows show card names on a phone');

  // ---- the bar at the bottom adds a turn from anywhere
  for (const where of ['document.documentElement.scrollHeight', 'document.documentElement.scrollHeight / 2', '0']) {
    await P.evaluate(`window.scrollTo(0, ${where})`);
    check(await inView(P, '#nav-turn'), `the add-a-turn bar is on screen at scroll ${where}`);
  }
  await P.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await P.tap('#nav-turn');
  await P.waitForFunction(() => { const r = document.getElementById('turn').getBoundingClientRect(); return r.top >= -1 && r.top < innerHeight / 2; });
  check(await P.evaluate(() => document.activeElement.id) === 'turn-by', 'the bar puts the focus in the turn form');

  // ---- my suggestion: the card shown is one I do not hold, and it is required
  check(await P.inputValue('#turn-by') === sample.me, 'my turn comes next');
  for (const [i, c] of ['wh', 'kn', 'lo'].entries()) await P.selectOption(`#turn-card-${i}`, c);
  check(await P.inputValue('#turn-refuted') === 'mu', 'the next player refutes by default');
  check(JSON.stringify(await values(P, '#turn-shown')) === '["","kn","lo"]', `shown offers the cards I do not hold: ${await values(P, '#turn-shown')}`);
  const turn13 = sample.events[12].suggestion; // sc suggested pe, kn, lo; mu showed lo
  for (const [i, c] of turn13.cards.entries()) await P.selectOption(`#turn-card-${i}`, c);
  const postsBefore = posts.length;
  await P.tap('#turn-submit');
  await P.waitForSelector('#error:not(.hidden)');
  check((await P.textContent('#error-text')).includes('choose the card mu showed you'), 'the card shown is required');
  check(posts.length === postsBefore, 'nothing was sent without the card shown');
  check(await inView(P, '#error'), 'the message is on screen');
  await P.selectOption('#turn-shown', turn13.shown);
  const before = await analysis(id);
  await P.tap('#turn-submit');
  await P.waitForSelector(`#notepad[data-version="${++v}"]`);
  await P.waitForSelector(`#lesson[data-version="${v}"]`);
  const after = await analysis(id);
  check(await P.isHidden('#error'), 'the message is gone');

  // ---- what the turn taught, at the top of the screen with the notepad right under it
  check(await inView(P, '#lesson', true), 'what the turn taught is on screen');
  const lesson = await P.textContent('#lesson');
  check(lesson.startsWith(`Turn 13 added: sc suggested ${names(turn13.cards)}; mu refuted and showed ${NAME.lo}. What it taught:`), `lesson: ${lesson}`);
  const [lessonTop, notepadTop] = await P.evaluate(() => [document.getElementById('lesson').getBoundingClientRect().top,
    document.getElementById('notepad').getBoundingClientRect().top]);
  check(lessonTop >= -1 && lessonTop < 60, `the lesson is at the top of the screen: ${lessonTop}`);
  check(notepadTop > lessonTop && notepadTop < 844 / 2, `the notepad follows it on screen: ${notepadTop}`);
  check(await P.evaluate(() => document.activeElement.id) === 'lesson', 'the lesson has the focus (it is read out)');
  const certain = newlyCertain(before, after);
  check(certain.length > 0 && certain.every((f) => lesson.includes(f)), `the lesson names every new certain fact ${certain}: ${lesson}`);
  const move = biggestMove(before, after);
  check(!move || lesson.includes(`Biggest changes: ${NAME[move.card]} in`), `the lesson names the biggest change (${move && move.card}): ${lesson}`);
  check(!lesson.includes('null') && !lesson.includes('undefined'), `lesson: ${lesson}`);
  const newest = '#events li:first-child';
  check(await P.getAttribute(newest, 'data-index') === '12' && await P.textContent(`${newest} .turn-no`) === '13', 'the newest turn comes first, numbered 13');
  check(await P.textContent(`${newest} .event-text`) === `sc suggested ${names(turn13.cards)}; mu refuted and showed ${NAME.lo}`, 'the turn reads with card names');
  if (shots) {
    await settled(P);
    mkdirSync(shots, { recursive: true });
    await P.screenshot({ path: join(shots, 'notepad-phone.png') });
  }

  // ---- when I refute, only my cards are offered
  await settled(P);
  check(await P.inputValue('#turn-by') === 'mu', 'the next suggester follows');
  for (const [i, c] of ['wh', 'wr', 'st'].entries()) await P.selectOption(`#turn-card-${i}`, c);
  await P.selectOption('#turn-refuted', sample.me);
  check(JSON.stringify(await values(P, '#turn-shown')) === '["","wh","st"]', `when I refute, shown offers my cards: ${await values(P, '#turn-shown')}`);
  for (const [i, c] of ['pe', 'kn', 'ha'].entries()) await P.selectOption(`#turn-card-${i}`, c);
  check(JSON.stringify(await values(P, '#turn-shown')) === '[""]', 'none of mine: nothing to show');
  check((await P.textContent('#turn-shown-note')).includes('You hold none of these cards'), 'the form says I cannot have refuted');

  // ---- a contradiction opens in view with the focus: "nobody refuted" two of my cards
  const mine = ['wh', 'kn', 'st'];
  for (const [i, c] of mine.entries()) await P.selectOption(`#turn-card-${i}`, c);
  await P.selectOption('#turn-refuted', '');
  await P.tap('#turn-submit');
  await P.waitForSelector(`#notepad[data-version="${++v}"]`);
  await P.waitForSelector('#conflict:not(.hidden)');
  check(await inView(P, '#conflict', true), 'the contradiction is on screen');
  check(await P.evaluate(() => document.activeElement.id) === 'conflict', 'the contradiction has the focus');
  const conflict = await P.textContent('#conflict');
  // Turn 14 contradicts my hand and also turn 6 (sc showed wh): either is a smallest set, and the
  // engine may name either; the wrong turn must be in it.
  check(conflict.includes(`turn 14: mu suggested ${names(mine)}; nobody refuted`) && (conflict.includes('your hand') || conflict.includes('turn 6:')), `conflict: ${conflict}`);
  await settled(P);
  await P.tap('#events li[data-index="13"] button.delete');
  await P.waitForSelector(`#notepad[data-version="${++v}"]`);
  check(await P.isHidden('#conflict'), 'deleting the wrong turn resolves it');

  // ---- why: a certain cell low in the notepad opens the box in view, with the focus
  const cells = await P.$$eval('#notepad td[data-status="yes"], #notepad td[data-status="no"]', (tds) => tds.map((td) => [td.dataset.card, td.dataset.place]));
  const [card, place] = cells[cells.length - 1];
  const cell = `#notepad td[data-card="${card}"][data-place="${place}"]`;
  await P.tap(cell);
  await P.waitForSelector('#why-fact');
  check(await inView(P, '#why', true), `the why box is on screen: ${await P.evaluate(() => JSON.stringify([document.getElementById('why').getBoundingClientRect(), document.getElementById('turn-bar').getBoundingClientRect(), innerWidth, innerHeight]))}`);
  check(await P.evaluate(() => document.activeElement.id) === 'why', 'the why box has the focus');
  const why = await P.textContent('#why');
  check(why.includes(`Why ${NAME[card]} (${card}) is`) && !why.includes('null'), `why: ${why}`);
  await P.tap('#why button.why-close');
  check(await P.isHidden('#why'), 'the why box closes');
  check(await P.evaluate(() => document.activeElement.dataset.card), 'the focus returns to the cell');

  // ---- the advice reads in card names
  await P.waitForSelector(`#advice-body[data-version="${v}"]`);
  const suggest = await P.$$eval('#advice-suggest li', (lis) => lis.map((li) => [li.dataset.cards, li.querySelector('strong').textContent]));
  // (each card maybe followed by " or " and others that give the same answers)
  const named = (ids, text) => text.split(', ').length === ids.length && text.split(', ').every((part, k) => part.split(' or ')[0] === NAME[ids[k]] && part.split(' or ').every((n) => Object.values(NAME).includes(n)));
  check(suggest.length > 0 && suggest.every(([ids, text]) => named(ids.split(','), text)), `suggestions in names: ${JSON.stringify(suggest)}`);

  // ---- which card to show, then that turn in one tap
  await P.selectOption('#ask-by', 'gr');
  const asked = ['wh', 'pi', 'st'];
  for (const [i, c] of asked.entries()) await P.selectOption(`#ask-card-${i}`, c);
  await P.tap('#ask button[type="submit"]');
  await P.waitForFunction(() => document.getElementById('ask-answer').dataset.card);
  const show = await P.getAttribute('#ask-answer', 'data-card');
  check(['wh', 'st'].includes(show), `the card to show is mine: ${show}`);
  check((await P.textContent('#ask-answer')).startsWith(`Show ${NAME[show]} (${show}):`), 'the answer names the card');
  const enter = await P.textContent('#ask-enter');
  check(enter === `Enter this turn: gr suggested ${names(asked)}; sc refuted and showed ${NAME[show]}`, `one-tap button: ${enter}`);
  await settled(P);
  const postsBeforeTap = posts.length;
  await P.tap('#ask-enter');
  await P.waitForSelector(`#notepad[data-version="${++v}"]`);
  check(posts.length === postsBeforeTap + 1, 'one tap, one request');
  check(await P.isHidden('#ask-enter'), 'the button goes once used');
  let s = await stored(id);
  const last = s.file.events[s.file.events.length - 1].suggestion;
  check(last.by === 'gr' && last.cards.join() === asked.join() && last.refuted_by === 'sc' && last.shown === show, `the stored turn: ${JSON.stringify(last)}`);

  // ---- the bar's Undo takes that turn back from wherever the page is scrolled to (the header's Redo restores it)
  await settled(P);
  await P.evaluate('window.scrollTo(0, document.documentElement.scrollHeight / 2)');
  check(await inView(P, '#bar-undo'), 'the bar\'s Undo is on screen');
  await P.tap('#bar-undo');
  await P.waitForSelector(`#notepad[data-version="${++v}"]`);
  check((await stored(id)).events.length === 13, 'the bar\'s Undo took the turn back');
  await settled(P);
  await P.tap('#redo');
  await P.waitForSelector(`#notepad[data-version="${++v}"]`);
  check((await stored(id)).events.length === 14, 'Redo restored it');

  // ---- a desktop: the form stays on screen, the lesson and the why box open in view
  const D = watch(await (await browser.newContext(DESKTOP)).newPage());
  await D.goto(`${URL}#/game/${id}`);
  await D.waitForSelector(`#notepad[data-version="${v}"]`);
  await D.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  check(await inView(D, '#turn-submit'), 'on a desktop the turn form stays on screen when scrolled');
  const turn17 = sample.events[16].suggestion; // pe suggested sc, pi, ha; mu refuted
  await D.selectOption('#turn-by', turn17.by);
  for (const [i, c] of turn17.cards.entries()) await D.selectOption(`#turn-card-${i}`, c);
  await D.selectOption('#turn-refuted', turn17.refuted_by);
  await D.click('#turn-submit');
  await D.waitForSelector(`#lesson[data-version="${++v}"]`);
  check(await inView(D, '#lesson') && await inView(D, '#events li:first-child'), 'desktop: the lesson and the new turn are on screen');
  await D.click(cell);
  await D.waitForSelector('#why-fact');
  check(await inView(D, '#why') && await D.evaluate(() => document.activeElement.id) === 'why', 'desktop: the why box is on screen with the focus');
  s = await stored(id);
  check(s.version === v && s.events.length === 15, `the server has the ${s.events.length} turns the pages entered`);
  console.log(JSON.stringify({ phone: 'ok', version: v }));
});
