// The advice as it firms up with `sleuth serve` (advice-progress.mjs): a
// slow game imported through the page. Run by
// tests/it/e2e.rs; the offline app's side is in offline.mjs.
import { run, URL, DESKTOP } from './lib.mjs';
import { slowGame, watchAdvice } from './advice-progress.mjs';

await run(async (browser, watch) => {
  const page = watch(await (await browser.newContext(DESKTOP)).newPage());
  await page.goto(URL);
  await page.waitForSelector('#view-list:not(.hidden)');
  const steps = await watchAdvice(page, () =>
    page.setInputFiles('#import', { name: 'slow.json', mimeType: 'application/json', buffer: slowGame }));
  console.log(JSON.stringify({ steps }));
});
