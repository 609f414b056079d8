// The advice as it firms up, in either backend: the page's advice panel is
// watched (a MutationObserver) from before a slow game is opened until its
// final advice (a custom deck of four categories of 8 cards and 10 players,
// `sleuth generate --deck 8,8,8,8 --players 10 --suggestions 8 --seed 1`:
// seconds of suggestions natively, since master games take a tenth), and what it showed is checked against
// sleuth-core's ranking (tests/it/e2e.rs passes it in SLEUTH_RANKED:
// [{cards: "a,b,c", information: "1.23", same: null}], every shortlisted
// suggestion, best first, `same` the index of the first with the same
// answers; and `listed`, how many choices the final advice lists).
import { readFileSync } from 'node:fs';

export const slowGame = readFileSync(new URL('./custom-4x8-slow-advice.json', import.meta.url));
const { ranked, listed } = JSON.parse(readFileSync(process.env.SLEUTH_RANKED, 'utf8'));

function check(cond, message) {
  if (!cond) throw new Error(`check failed: ${message}`);
}

/**
 * Watches the advice panel of `page` while `open()` opens the slow game (at
 * version 0), until its final advice; checks that a ranking came first,
 * each suggestion shown with sleuth-core's number, and that the final list
 * is sleuth-core's. Answers the progress lines seen.
 */
export async function watchAdvice(page, open) {
  await page.evaluate(() => {
    const body = document.getElementById('advice-body');
    window.adviceSeen = [];
    new MutationObserver(() => {
      window.adviceSeen.push({
        evaluated: body.dataset.evaluated || '',
        version: body.dataset.version || '',
        progress: document.getElementById('advice-progress')?.textContent || '',
        items: [...body.querySelectorAll('#advice-suggest li')].map((li) => [li.dataset.cards, li.textContent]),
      });
    }).observe(body, { attributes: true, childList: true, subtree: true });
  });
  await open();
  await page.waitForFunction(() => window.adviceSeen.some((s) => s.evaluated.startsWith('0 '))
    && document.getElementById('advice-body').dataset.version === '0', null, { timeout: 120000 });
  const seen = await page.evaluate(() => window.adviceSeen);
  const partial = seen.filter((s) => s.evaluated.startsWith('0 ') && s.progress);
  const steps = [...new Set(partial.map((s) => s.progress))];
  // Each suggestion takes a few tenths of a second, the page asks every
  // quarter: the ranking firms up in steps, each with more suggestions.
  const rankings = new Set(partial.filter((s) => s.items.length > 0).map((s) => s.evaluated));
  check(rankings.size >= 2, `the ranking firms up in steps before the final advice: ${JSON.stringify(steps)}`);
  const byCards = new Map(ranked.map((r) => [r.cards, r]));
  // Suggestions with the same answers are one item: the game may have some.
  const grouped = ranked.some((r) => r.same !== null);
  for (const s of partial) {
    for (const [cards, text] of s.items) {
      const r = byCards.get(cards);
      check(r && text.includes(`${r.information} bits`), `"${s.progress}": ${cards} shows sleuth-core's number (${text})`);
    }
    const firsts = new Set(s.items.map(([cards]) => { const r = byCards.get(cards); return r.same === null ? cards : ranked[r.same].cards; }));
    check(firsts.size === s.items.length, `"${s.progress}": one item per choice`);
    const n = Number((s.progress.match(/^(\d+) of/) || [])[1] ?? -1);
    if (n >= 0) {
      check(grouped ? s.items.length <= Math.min(n, listed) && s.items.length >= Math.min(n, 1) : s.items.length === Math.min(n, listed), `"${s.progress}" lists ${s.items.length} suggestions`);
    }
  }
  const final = await page.$$eval('#advice-suggest li', (lis) => lis.map((li) => li.dataset.cards));
  const want = ranked.filter((r) => r.same === null).slice(0, listed).map((r) => r.cards);
  check(JSON.stringify(final) === JSON.stringify(want), `the final ranking is sleuth-core's: ${final} vs ${want}`);
  check(!(await page.isVisible('#advice-progress')), 'the progress line goes with the final advice');
  return steps;
}
