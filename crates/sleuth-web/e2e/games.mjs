// The list of games and joining from a phone, in a real browser. Run by
// tests/it/e2e.rs (the server listens on 127.0.0.1 only).
// - A game is named at set-up; the list shows names, renames and deletes
//   (after a confirmation that can be declined), as the server then says.
// - "New game" starts from a clean form, whatever the last game had.
// - The "Join from a phone" panel says that a phone cannot join a server
//   on the loopback address, and how to allow it.
import { run, check, createGame, api, sample, URL, PHONE } from './lib.mjs';

const listed = async () => (await api('GET', '/api/games')).body.games;

await run(async (browser, watch) => {
  const page = watch(await (await browser.newContext(PHONE)).newPage());
  await page.goto(URL);
  await page.waitForSelector('#game-list li');

  // ---- set up a named game through the form
  await page.tap('#nav-new');
  await page.fill('#setup-name', 'Friday at Sam\'s');
  await page.fill('#setup-players', sample.players.join(' '));
  await page.selectOption('#setup-me', sample.me);
  const chip = page.locator(`#setup-hand label.chip:has(input[value="${sample.hand[0]}"])`);
  check((await chip.textContent()).includes('Mrs. White'), `the hand's chips show card names: ${await chip.textContent()}`);
  for (const card of sample.hand) await page.check(`#setup-hand input[value="${card}"]`);
  await page.check('#setup-faceup input[value="ro"]');
  await page.tap('#setup-create');
  await page.waitForSelector('#notepad[data-version]');
  check(await page.textContent('#game-name') === 'Friday at Sam\'s', 'the game page is headed by its name');
  const first = (await listed())[0];
  check(first.name === 'Friday at Sam\'s', `the server stored the name: ${JSON.stringify(first)}`);

  // ---- "New game" again: a clean form, nothing ticked from the last game
  await page.tap('#nav-new');
  await page.waitForSelector('#view-setup:not(.hidden)');
  check(await page.inputValue('#setup-players') === '' && await page.inputValue('#setup-name') === '', 'no players or name left over');
  check(await page.locator('#setup-hand input:checked, #setup-faceup input:checked').count() === 0, 'no hand or face-up card left ticked');
  await page.fill('#setup-players', 'a b c');
  check(await page.locator('#setup-hand input:checked, #setup-faceup input:checked').count() === 0, 'still nothing ticked once players are typed');

  // ---- the list: names, rename, delete with a confirmation
  const doomed = await createGame(3, 'To be deleted');
  await page.goto(`${URL}#/`);
  await page.waitForSelector(`#game-list li[data-id="${doomed.id}"]`);
  const names = await page.$$eval('#game-list .game-name', (as) => as.map((a) => a.textContent));
  check(names.includes('Friday at Sam\'s') && names.includes('To be deleted'), `the list shows the names: ${names}`);
  const item = (id) => `#game-list li[data-id="${id}"]`;
  check((await page.textContent(item(doomed.id))).includes('3 turns'), 'the list counts the turns');

  await page.tap(`${item(first.id)} button.rename`);
  await page.fill(`${item(first.id)} input.rename-input`, 'Saturday rematch');
  await page.tap(`${item(first.id)} button[type="submit"]`);
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.includes('Saturday rematch'), `${item(first.id)} .game-name`);
  check((await listed()).find((g) => g.id === first.id).name === 'Saturday rematch', 'the server has the new name');

  await page.tap(`${item(doomed.id)} button.delete`);
  const question = await page.textContent(item(doomed.id));
  check(question.includes('Delete "To be deleted" and its 3 turns?'), `a confirmation first: ${question}`);
  await page.tap(`${item(doomed.id)} button:has-text("Keep it")`);
  check((await listed()).some((g) => g.id === doomed.id), 'declining keeps the game');
  await page.tap(`${item(doomed.id)} button.delete`);
  await page.tap(`${item(doomed.id)} button.confirm-delete`);
  await page.waitForSelector(item(doomed.id), { state: 'detached' });
  const left = await listed();
  check(!left.some((g) => g.id === doomed.id) && left.some((g) => g.id === first.id), 'the server deleted that game and only that one');
  const gone = await api('GET', `/api/games/${doomed.id}`);
  check(gone.status === 404, `the deleted game is gone: ${gone.status}`);

  // ---- joining from a phone: on 127.0.0.1 the panel says how to allow it
  await page.tap('#nav-share');
  await page.waitForSelector('#share-local');
  const share = await page.textContent('#share');
  check(share.includes('A phone cannot join yet') && share.includes('127.0.0.1') && /sleuth serve --data \S+ --listen 0\.0\.0\.0:\d+/.test(share), `the command keeps the data folder: ${share}`);
  check(await page.locator('#share-qr').count() === 0, 'no QR code of an address a phone cannot reach');
  await page.tap('#share-close');

  // ---- on a LAN the panel shows the QR code. A test binds loopback only, so
  // the server's own answer (its real QR SVG) is passed on as a LAN answer,
  // with the LAN address of the contract's example.
  const real = await api('GET', '/api/share');
  check(real.status === 200 && real.body.qr_svg.startsWith('<svg'), `GET /api/share: ${real.status}`);
  const lanUrl = 'http://192.168.1.20:7878/?token=abc';
  await page.route('**/api/share', (route) => route.fulfill({ contentType: 'application/json',
    body: JSON.stringify({ ...real.body, urls: [lanUrl], lan: true, listening: '0.0.0.0:7878' }) }));
  await page.tap('#nav-share');
  await page.waitForSelector('#share-qr');
  const qr = await page.$eval('#share-qr', (img) => img.decode().then(() => [img.naturalWidth, img.getBoundingClientRect().width]));
  check(qr[0] > 0 && qr[1] >= 150, `the QR code is drawn, large enough to scan: ${qr}`);
  check(await page.textContent('#share-urls') === lanUrl, 'the address is listed under the code');
  console.log(JSON.stringify({ games: 'ok' }));
});
