// Whole games played through the command line alone, one per variant, against a bot: each turn
// the player types the words of a choice the completion list offers (or its number), and asks
// questions ("hand", "scores") answered in words. Words that name nothing are answered with the
// choices and play nothing. Same words everywhere: each choice button says one of the API's
// choices word for word, and each move the API answers as played is said alike in the move log.
// Usage: node command_line.mjs <server base URL> <name> [variant]. Prints one JSON line.
import { DESKTOP, createGame, launch, register, watchOutside } from './lib.mjs';

const [base, name, only] = process.argv.slice(2);
// One variant when the third argument names it (the tests play each in a browser of its own).
const variants = only ? [only] : ['keltis-card', 'keltis', 'neue-wege'];
const browser = await launch();
const outside = [];
const answer = (page) => page.locator('#command-answer').innerText();
/** Type `text` and wait for the command line's answer (emptied first, so a new one shows). */
const ask = async (page, text) => {
  await page.evaluate(() => { document.querySelector('#command-answer').textContent = ''; });
  await page.fill('#command', text);
  await page.press('#command', 'Enter');
  await page.waitForFunction(() => document.querySelector('#command-answer')?.textContent !== '', null, { timeout: 5000 });
  return answer(page);
};
try {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  watchOutside(page, base, outside);
  await register(page, base, name);
  const games = [];
  for (const variant of variants) {
    await page.goto(base + '/');
    await page.waitForSelector('#variant');
    const began = performance.now();
    const id = await createGame(page, { variant, bot: 'bot-random' });
    await page.waitForSelector('#command');
    const report = { variant, id, typed: 0, numbers: 0, questions: {}, refused: '', buttons: 0, unlike: [], logged: 0, unlogged: [], waits: { turn: 0, choices: 0, stale: 0, unanswered: 0 } };
    // Questions first.
    for (const q of ['hand', 'scores']) report.questions[q] = await ask(page, q);
    for (let step = 0; step < 2000; step++) {
      const turn = await page.locator('#turn').innerText();
      if (turn === 'Game over') break;
      if (turn !== 'Your turn') {
        report.waits.turn++;
        // Waited for in the page: a look from here costs round trips through the browser.
        await page.waitForFunction(() => ['Your turn', 'Game over'].includes(document.querySelector('#turn')?.textContent ?? ''),
          null, { polling: 50, timeout: 2000 }).catch(() => null);
        continue;
      }
      const version = await page.evaluate(() => document.querySelector('#command-choices')?.children.length ?? 0);
      if (!version) {
        report.waits.choices++;
        await page.waitForTimeout(50);
        continue;
      }
      if (!report.refused) {
        report.refused = await ask(page, 'lorem ipsum');
        continue;
      }
      // A card chosen (when one is playable), the board's buttons offer its choices too.
      const card = page.locator('.hand button[aria-pressed="false"]:not([aria-disabled="true"])').first();
      if (step % 2 === 0 && await card.count()) await card.click().catch(() => null);
      const alike = await page.waitForFunction(() => {
        const words = new Set([...document.querySelectorAll('#command-choices option')].map((o) => o.value));
        const said = [...document.querySelectorAll('.actions button[data-decision]')].map((b) => b.textContent);
        const off = said.filter((b) => !words.has(b));
        // (An object: a count of 0, no buttons shown, is an answer too, not a reason to wait on.)
        return off.length ? false : { buttons: said.length };
      }, null, { timeout: 3000 }).then(async (h) => (await h.jsonValue()).buttons, () => null);
      if (alike == null) {
        report.unlike.push(...await page.evaluate(() => {
          const words = new Set([...document.querySelectorAll('#command-choices option')].map((o) => o.value));
          return [...document.querySelectorAll('.actions button[data-decision]')].map((b) => b.textContent).filter((b) => !words.has(b));
        }));
      } else report.buttons += alike;
      const before = await answer(page);
      // The words of a completion (every fifth move its number instead).
      const options = await page.locator('#command-choices option').evaluateAll((os) => os.map((o) => o.value));
      const byNumber = step % 5 === 4;
      const text = byNumber ? '1' : options[step % options.length];
      await page.fill('#command', text);
      await page.press('#command', 'Enter');
      await page.waitForFunction(
        (b) => document.querySelector('#command-answer')?.textContent !== b || document.querySelector('#command')?.value === '',
        before, { timeout: 5000 },
      ).catch(() => { report.waits.unanswered++; });
      if ((await page.inputValue('#command')) === '') {
        report.typed += 1;
        if (byNumber) report.numbers += 1;
        // The API's words for what was played, in the move log.
        const played = await page.locator('#command-answer p').allTextContents();
        const logged = await page.waitForFunction((lines) => {
          const log = new Set([...document.querySelectorAll('#log li')].map((li) => li.textContent));
          return lines.every((l) => log.has(l));
        }, played, { timeout: 3000 }).then(() => true, () => false);
        if (logged) report.logged += played.length;
        else report.unlogged.push(...played);
      } else {
        // Stale completions (the turn moved on while they were read): read again.
        report.waits.stale++;
        await page.waitForTimeout(100);
      }
    }
    report.over = await page.locator('#turn').innerText();
    report.seconds = Math.round(performance.now() - began) / 1000;
    games.push(report);
  }
  console.log(JSON.stringify({ games, outside }));
} finally {
  await browser.close();
}
