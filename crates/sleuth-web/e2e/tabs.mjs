// Safe changes in a real browser: two pages on one game (two tabs, or a
// laptop and a phone) and double taps. Run by tests/it/e2e.rs.
// - A stale edit and a stale delete (the other page changed the turns) are
//   refused: the page shows the game as it is now and says why; the server
//   stored only the other page's change.
// - A page picks up the other page's change by itself (polling).
// - A double tap on "Add turn" stores one turn; on "Delete", deletes one.
// - An add whose answer is lost is sent again with its idempotency key and
//   stored once, with no word of another tab.
import { run, check, createGame, stored, sample, settled, URL, DESKTOP } from './lib.mjs';

/** An event with its keys in one order, to compare what the server stored. */
const canon = (e) => JSON.stringify(e, Object.keys(e).sort().concat(...Object.values(e).map((x) => Object.keys(x).sort())));
const sameEvents = (a, b) => a.length === b.length && a.every((e, i) => canon(e) === canon(b[i]));

async function enterTurn(page, { by, cards, refuted_by: refuted, shown }) {
  await page.selectOption('#turn-kind', 'suggestion');
  await page.selectOption('#turn-by', by);
  for (let i = 0; i < cards.length; i++) await page.selectOption(`#turn-card-${i}`, cards[i]);
  await page.selectOption('#turn-refuted', refuted || '');
  if (shown) await page.selectOption('#turn-shown', shown);
}

await run(async (browser, watch) => {
  const game = await createGame(6, 'Two tabs');
  const id = game.id;
  let expected = sample.events.slice(0, 6);
  let v = game.version;
  const A = watch(await (await browser.newContext(DESKTOP)).newPage());
  const B = watch(await (await browser.newContext(DESKTOP)).newPage());
  // A's polling is held back while A must stay stale: its conditional GETs of the game fail.
  let holdA = true;
  await A.route(`**/api/games/${id}`, (route) => {
    const r = route.request();
    return holdA && r.method() === 'GET' && r.headers()['if-none-match'] ? route.abort() : route.continue();
  });
  const requests = [];
  A.on('request', (r) => requests.push(`${r.method()} ${new globalThis.URL(r.url()).pathname}`));
  for (const p of [A, B]) {
    await p.goto(`${URL}#/game/${id}`);
    await p.waitForSelector(`#notepad[data-version="${v}"]`);
  }
  check(await A.textContent('#game-name') === 'Two tabs', 'the game\'s name heads the page');

  // ---- a stale edit: A opens turn 4 for editing, B deletes turn 2, A saves
  await A.click('#events li[data-index="3"] button.edit');
  check(await A.textContent('#turn-title') === 'Edit turn 4', 'editing turn 4');
  await A.selectOption('#turn-refuted', 'pe');
  await B.click('#events li[data-index="1"] button.delete');
  await B.waitForSelector(`#notepad[data-version="${++v}"]`);
  expected = expected.filter((_, i) => i !== 1);
  await A.click('#turn-submit');
  await A.waitForSelector(`#notepad[data-version="${v}"]`);
  await A.waitForSelector('#error:not(.hidden)');
  let said = await A.textContent('#error-text');
  check(said.includes('Not saved: your edit of turn 4 was not saved') && said.includes('the game as it is'), `A says why: ${said}`);
  check(await A.locator('#events li[data-index]').count() === 5, 'A shows the turns as they are now');
  check(await A.textContent('#turn-submit') === 'Add turn', 'the refused edit is closed');
  let s = await stored(id);
  check(s.version === v && sameEvents(s.file.events, expected), `the stale edit changed nothing: ${JSON.stringify(s.file.events)}`);

  // ---- a stale delete: B deletes turn 1, A (not yet updated) taps Delete on turn 3
  await settled(A);
  await settled(B);
  await A.click('#error-close');
  await B.click('#events li[data-index="0"] button.delete');
  await B.waitForSelector(`#notepad[data-version="${++v}"]`);
  expected = expected.slice(1);
  const shownTurn3 = await A.textContent('#events li[data-index="2"] .event-text');
  await A.click('#events li[data-index="2"] button.delete');
  await A.waitForSelector(`#notepad[data-version="${v}"]`);
  said = await A.textContent('#error-text');
  check(said.includes('turn 3 was not deleted'), `A says why: ${said}`);
  check(await A.locator('#events li[data-index]').count() === 4, 'A shows the four turns left');
  s = await stored(id);
  check(s.version === v && sameEvents(s.file.events, expected), 'the stale delete changed nothing');
  check(s.events.length === 4, `turn 3 as A saw it (${shownTurn3}) is still there`);

  // ---- A picks up B's changes by itself, within a poll, even in the middle of an edit;
  // that edit was opened at the old version, so saving it is refused
  await A.click('#error-close');
  await A.click('#events li[data-index="1"] button.edit');
  await A.selectOption('#turn-refuted', 'pl');
  holdA = false;
  await settled(B);
  await B.click('#undo');
  await B.waitForSelector(`#notepad[data-version="${++v}"]`);
  expected = sample.events.slice(0, 6).filter((_, i) => i !== 1);
  await A.waitForSelector(`#notepad[data-version="${v}"]`, { timeout: 8000 });
  check((await A.textContent('#sync')).includes('another tab'), 'A says where the change came from');
  check(await A.locator('#events li[data-index]').count() === 5, 'A shows B\'s undo');
  said = await A.textContent('#error-text');
  check(said.includes('while you were editing turn 2'), `A warns about the open edit: ${said}`);
  await A.click('#turn-submit');
  await A.waitForFunction(() => document.getElementById('error-text').textContent.startsWith('Not saved'));
  check((await A.textContent('#error-text')).includes('your edit of turn 2 was not saved'), 'the edit opened before the change is refused');
  s = await stored(id);
  check(s.version === v && sameEvents(s.file.events, expected), 'the refused edit changed nothing');

  // ---- a double tap on "Add turn" stores one turn, with no error
  await settled(A);
  await A.click('#error-close');
  const p0 = requests.filter((r) => r === `POST /api/games/${id}/events`).length;
  const posts = () => requests.filter((r) => r === `POST /api/games/${id}/events`).length - p0;
  await enterTurn(A, sample.events[6].suggestion);
  await A.dblclick('#turn-submit');
  await A.waitForSelector(`#notepad[data-version="${++v}"]`);
  await A.waitForTimeout(800); // time for a second request, if one went out
  check(posts() === 1, `a double click sent ${posts()} turns`);
  expected.push(sample.events[6]);
  // A finger's double tap: the second tap comes after the page has redrawn.
  await settled(A);
  await enterTurn(A, sample.events[7].suggestion);
  await A.locator('#turn-submit').scrollIntoViewIfNeeded();
  const submit = await A.locator('#turn-submit').boundingBox();
  await A.mouse.click(submit.x + submit.width / 2, submit.y + submit.height / 2);
  await A.waitForSelector(`#notepad[data-version="${++v}"]`);
  await A.mouse.click(submit.x + submit.width / 2, submit.y + submit.height / 2);
  await A.waitForTimeout(800);
  check(posts() === 2, `a double tap sent ${posts() - 1} turns`);
  expected.push(sample.events[7]);
  check(await A.isHidden('#error'), `no message after a double tap: ${await A.textContent('#error-text')}`);
  s = await stored(id);
  check(s.version === v && sameEvents(s.file.events, expected), `one turn stored per double tap: ${s.events.map((e) => e.text).join(' | ')}`);

  // ---- a double tap on "Delete" deletes one turn: the one tapped
  await settled(A);
  const d0 = requests.filter((r) => r.startsWith(`DELETE /api/games/${id}/events/`)).length; // the refused one above
  const deletes = () => requests.filter((r) => r.startsWith(`DELETE /api/games/${id}/events/`)).length - d0;
  await A.dblclick('#events li[data-index="0"] button.delete');
  await A.waitForSelector(`#notepad[data-version="${++v}"]`);
  await A.waitForTimeout(800);
  check(deletes() === 1, `a double click sent ${deletes()} deletes`);
  expected = expected.slice(1);
  // The finger again: tap turn 2's Delete, and tap once more where it was.
  await settled(A);
  const delButton = A.locator('#events li[data-index="1"] button.delete');
  await delButton.scrollIntoViewIfNeeded();
  const del = await delButton.boundingBox();
  await A.mouse.click(del.x + del.width / 2, del.y + del.height / 2);
  await A.waitForSelector(`#notepad[data-version="${++v}"]`);
  await A.mouse.click(del.x + del.width / 2, del.y + del.height / 2);
  await A.waitForTimeout(800);
  check(deletes() === 2, `a double tap sent ${deletes() - 1} deletes`);
  expected = expected.filter((_, i) => i !== 1);
  check(await A.isHidden('#error'), `no message after a double tap: ${await A.textContent('#error-text')}`);
  s = await stored(id);
  check(s.version === v && sameEvents(s.file.events, expected), `one turn deleted per double tap: ${s.events.map((e) => e.text).join(' | ')}`);
  check(await A.locator('#events li[data-index]').count() === expected.length, 'the page lists what the server stored');

  // ---- the answer of an add is lost (the network drops after the server stored the turn):
  // the page sends the same request again with the same key; one turn, and no "another tab"
  await settled(A);
  let dropped = 0;
  const keys = [];
  const events = `**/api/games/${id}/events`;
  await A.route(events, async (route) => {
    const r = route.request();
    if (r.method() !== 'POST') return route.continue();
    keys.push(r.headers()['idempotency-key']);
    if (dropped++ > 0) return route.continue();
    await route.fetch(); // the server gets it and stores it...
    return route.abort('failed'); // ...and the page never sees the answer
  });
  await enterTurn(A, sample.events[8].suggestion);
  await A.click('#turn-submit');
  // The lesson comes with the change's own answer (a poll may bring the notepad first).
  await A.waitForSelector(`#lesson[data-version="${++v}"]`);
  check(keys.length === 2 && keys[0] && keys[0] === keys[1], `sent again with the same key: ${keys.join(', ')}`);
  check(await A.isHidden('#error'), `no message after a lost answer: ${await A.textContent('#error-text')}`);
  const lesson = await A.textContent('#lesson');
  check(lesson.startsWith('Already saved (its first answer was lost): stored once.'), `the page says the turn was stored once: ${lesson}`);
  expected.push(sample.events[8]);
  s = await stored(id);
  check(s.version === v && sameEvents(s.file.events, expected), `the turn is stored once: ${s.events.map((e) => e.text).join(' | ')}`);
  await A.unroute(events);

  console.log(JSON.stringify({ tabs: 'ok', version: v, turns: expected.length }));
});
