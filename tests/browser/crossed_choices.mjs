// The command line's completions when the server's answers misbehave, in a game where it is the
// player's turn to lay or discard a card (Keltis Card). First the turn's choices fail once (the
// request aborted): the next redraw of the page (a card chosen) asks again. Then two answers
// cross: the first load's answer is held back while the player types "1" (a card played: the
// turn goes on to a draw), the draw's choices are answered and listed, and only then the held
// answer for the turn before arrives. The list must stay on the draws (the CI failure of
// keltis_card_at_the_text_table_by_keyboard: the older answer, listed last, left it stale).
// Usage: node crossed_choices.mjs <base> <name> <password> <game id>. Prints one JSON line.
import { DESKTOP, launch, logIn, watchOutside } from './lib.mjs';

const [base, name, password, gameId] = process.argv.slice(2);
const browser = await launch();
const outside = [];
const report = {};
const listed = (page) => page.$$eval('#command-choices option', (os) => os.map((o) => o.value));
const words = async (response) => (await response.json()).choices.map((c) => c.words);
const isChoices = (url) => url.pathname.endsWith(`/games/${gameId}/choices`);
/** Waits (polling) until `ready()` holds, for at most `ms`. */
const until = async (ready, ms = 5000) => {
  const end = performance.now() + ms;
  while (!(await ready())) {
    if (performance.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
};
try {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  watchOutside(page, base, outside);
  await logIn(page, `${base}/games/${gameId}`, name, password);
  await page.waitForSelector('#command');
  report.first = await until(async () => (await listed(page)).length > 0);

  // One answer fails: the page loads again and its choices request is aborted.
  let aborted = 0;
  await page.route(isChoices, async (route) => {
    if (aborted === 0) {
      aborted += 1;
      await route.abort();
    } else {
      await route.continue();
    }
  });
  await page.reload();
  await page.waitForSelector('button.card[data-playable="true"]');
  await until(async () => aborted === 1);
  report.afterFailure = await listed(page);
  await page.click('button.card[data-playable="true"]');
  report.retried = await until(async () => (await listed(page)).length > 0);
  report.afterRedraw = await listed(page);
  await page.unroute(isChoices);

  // Two answers cross: the first held back until the second is listed.
  let held = null;
  let latest = null;
  await page.route(isChoices, async (route) => {
    const response = await route.fetch();
    if (!held) {
      held = { route, response };
    } else {
      latest = await words(response);
      await route.fulfill({ response });
    }
  });
  await page.reload();
  await page.waitForSelector('#command');
  await until(async () => held !== null);
  await page.fill('#command', '1');
  await page.press('#command', 'Enter');
  report.latestListed = await until(async () => latest !== null
    && JSON.stringify(await listed(page)) === JSON.stringify(latest));
  report.stale = await words(held.response);
  report.latest = latest;
  const finished = page.waitForEvent('requestfinished', (r) => r === held.route.request());
  await held.route.fulfill({ response: held.response });
  await finished;
  // The page's own handling of the held answer (its JSON read, then the list) a few turns of its
  // event loop after the response is in.
  for (let i = 0; i < 5; i++) await page.evaluate(() => new Promise((r) => setTimeout(r, 10)));
  report.listed = await listed(page);
  report.outside = outside;
  console.log(JSON.stringify(report));
} finally {
  await browser.close();
}
