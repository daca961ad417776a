// The text-first table by keyboard alone, a whole game of each variant: from a game's page, the first link (Tab, Enter) opens
// the game as text; Tab reaches the command line; each turn the player types a completion and
// presses Enter, until the game is over. After every move the accessibility tree is read: no
// internal id is ever named. The bot's moves are announced in the live region, each once; axe
// finds nothing serious at the end.
// Usage: node text_table.mjs <server base URL> <name> [variant]. Prints one JSON line.
import { createRequire } from 'node:module';
import { DESKTOP, createGame, launch, register, stuck, watchOutside } from './lib.mjs';

const require = createRequire(import.meta.url);
const [base, name, only] = process.argv.slice(2);
// One variant when the third argument names it (the tests play each in a browser of its own).
const variants = only ? [only] : ['keltis-card', 'keltis', 'neue-wege'];
const browser = await launch();
const outside = [];
/** What looks like an internal id: a space (`blue-3`, `r4c2`) or a decision's type. */
const ID = /\b(green|yellow|brown|blue|pink|gray)-\d+\b|\br\d+c\d+\b|draw_deck|draw_pile|take_stone|discard_from|\bundefined\b/;
try {
  // axe is injected as a script of its own, which the page's policy would refuse.
  const context = await browser.newContext({ viewport: DESKTOP, bypassCSP: true });
  const page = await context.newPage();
  watchOutside(page, base, outside);
  await register(page, base, name);
  const games = [];
  for (const variant of variants) {
    await page.goto(base + '/');
    await page.waitForSelector('#variant');
    games.push(await playAtTheTextTable(page, variant));
  }
  console.log(JSON.stringify({ games, outside }));
} finally {
  await browser.close();
}

/** One whole game against a bot at the text table, by keyboard. */
async function playAtTheTextTable(page, variant) {
  const began = performance.now();
  let reading = 0;
  const id = await createGame(page, { variant, bot: 'bot-random' });
  // The game's page as a link opens it (the focus on its first choice); the page's first link,
  // reached by keyboard (Shift+Tab back to the top), opens the text table.
  await page.goto(`${base}/games/${id}`);
  await page.waitForSelector('#command');
  let back = 0;
  while ((await page.evaluate(() => document.activeElement?.id)) !== 'first-link' && back < 80) {
    await page.keyboard.press('Shift+Tab');
    back++;
  }
  const firstLink = await page.evaluate(() => {
    const first = document.querySelector('a[href]');
    return first === document.activeElement ? `${first.id}: ${first.textContent}` : `not first: ${first?.id}`;
  });
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`/games/${id}/text$`));
  await page.waitForSelector('#text-turn');
  await page.waitForFunction(() => document.querySelector('#text-turn')?.textContent === 'Your turn', null, { timeout: 10000 });
  const botMoves = () => page.evaluate(async (game) => {
    const token = JSON.parse(localStorage.getItem('keltis.session') ?? '{}').access_token;
    const events = await (await fetch(`/api/v1/games/${game}/events?after=0&limit=1000`, { headers: { authorization: `Bearer ${token}` } })).json();
    const mine = (await (await fetch(`/api/v1/games/${game}`, { headers: { authorization: `Bearer ${token}` } })).json()).your_seat;
    return events.filter((e) => (e.kind === 'decided' || e.kind === 'timed_out') && e.data.seat !== mine).length;
  }, id);
  const before = await botMoves();
  await page.evaluate(() => {
    window.said = [];
    const live = document.querySelector('#announce');
    new MutationObserver(() => { if (live.textContent) window.said.push(live.textContent); })
      .observe(live, { childList: true, characterData: true, subtree: true });
  });
  let tabs = 0;
  while ((await page.evaluate(() => document.activeElement?.id)) !== 'command' && tabs < 80) {
    await page.keyboard.press('Tab');
    tabs++;
  }
  const report = { variant, id, firstLink, tabs, moves: 0, ids: [], headings: [] };
  let waits = 0;
  for (let step = 0; step < 3000; step++) {
    const turn = await page.locator('#text-turn').innerText();
    if (turn === 'Game over') break;
    const options = await page.locator('#command-choices option').evaluateAll((os) => os.map((o) => o.value));
    if (turn !== 'Your turn' || !options.length) {
      // A page that waits this long (60 looks of 2 s) for a bot that moves at once is stuck.
      // (`waits` counts the looks since the last move, refused completions too.)
      if (++waits > 60) throw new Error(`the text table stopped: ${JSON.stringify(await stuck(page, id, '#text-turn'))}`);
      // Waited for in the page: a look from here costs round trips through the browser.
      await page.waitForFunction(() => document.querySelector('#text-turn')?.textContent === 'Game over'
        || (document.querySelector('#text-turn')?.textContent === 'Your turn' && document.querySelector('#command-choices option')),
      null, { polling: 50, timeout: 2000 }).catch(() => null);
      continue;
    }
    // The completion's first letter by key, the rest as one input (what choosing a completion
    // does): a key's events for each letter were a third of a game's time in the browser.
    const words = options[step % options.length];
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(words.slice(0, 1));
    await page.keyboard.insertText(words.slice(1));
    await page.keyboard.press('Enter');
    const done = await page.waitForFunction(() => document.querySelector('#command')?.value === '', null, { timeout: 3000 })
      .then(() => true, () => false);
    if (!done) {
      // Every completion refused, look after look: the table is stuck on choices it no longer has.
      if (++waits > 60) {
        const answer = await page.locator('#command-answer').innerText().catch(() => '');
        throw new Error(`the text table refuses its own completions: ${JSON.stringify({ words, answer, ...await stuck(page, id, '#text-turn') })}`);
      }
      continue;
    }
    waits = 0;
    report.moves++;
    const read = performance.now();
    const tree = await page.locator('body').ariaSnapshot();
    reading += performance.now() - read;
    const found = ID.exec(tree);
    if (found) report.ids.push(found[0]);
    if (await page.evaluate(() => document.activeElement?.id) !== 'command') report.focusLost = (report.focusLost ?? 0) + 1;
  }
  report.over = await page.locator('#text-turn').innerText();
  report.headings = await page.locator('main h2').allInnerTexts();
  report.announced = (await page.evaluate(() => window.said)).flatMap((s) => s.split('. '));
  report.botMoves = (await botMoves()) - before;
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  report.axe = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
  // Where the time went: the whole game, and the accessibility tree's readings in it.
  report.seconds = Math.round(performance.now() - began) / 1000;
  report.treeSeconds = Math.round(reading) / 1000;
  return report;
}
