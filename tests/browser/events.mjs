// An event in two browsers: the desktop makes a one-round Swiss of Keltis Card for two players,
// starting once full, and enters; the phone finds it on the events page and enters, which starts
// it; the phone follows "Your game" and resigns; the desktop sees the standings
// move (itself 1 point, the phone 0) and the event finished. Then both join the Keltis Card
// ladder, and the phone challenges the desktop.
// Usage: node events.mjs <server base URL> <name A> <name B>. Prints one JSON line.
import { DESKTOP, PHONE, launch, register, watchOutside } from './lib.mjs';

const [base, nameA, nameB] = process.argv.slice(2);
const browser = await launch();
const outside = [];
// Cell by cell (not innerText, which drops the tabs of a table caught mid-redraw).
const standings = (page) => page.locator('#standings tbody tr')
  .evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim()).join('\t')));
try {
  const a = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  const b = await (await browser.newContext(PHONE)).newPage();
  watchOutside(a, base, outside);
  watchOutside(b, base, outside);
  await register(a, base, nameA);
  await a.click('nav a[href="/events"]');
  await a.waitForSelector('#ev-name');
  await a.fill('#ev-name', 'Browser Swiss');
  await a.selectOption('#ev-variant', 'keltis-card');
  await a.fill('#ev-rounds', '1');
  await a.fill('#ev-max', '2');
  await a.click('#ev-create');
  await a.waitForURL(/\/events\/\d+$/);
  const event = Number(/(\d+)$/.exec(a.url())[1]);
  await a.click('#event-enter');
  await a.waitForSelector('#event-withdraw');
  const before = await standings(a);

  await register(b, base, nameB);
  await b.goto(base + '/events');
  await b.locator(`#events-registering a[href="/events/${event}"]`).tap();
  await b.waitForSelector('#event-enter');
  await b.locator('#event-enter').tap();
  // Full: the event starts, and the phone is shown its game.
  await b.waitForSelector('#event-your-game a', { timeout: 15000 });
  const summary = await b.locator('#event-summary').innerText();
  await b.locator('#event-your-game a').tap();
  await b.waitForURL(/\/games\/\d+$/);
  const game = Number(/(\d+)$/.exec(b.url())[1]);
  await b.waitForSelector('#turn');
  // The desktop opens the game too; the phone resigns.
  await a.goto(`${base}/games/${game}`);
  await a.waitForSelector('#turn');
  b.on('dialog', (d) => d.accept());
  await b.locator('button.resign').tap();
  await b.waitForSelector('#rematch-offer', { timeout: 15000 });

  await a.goto(`${base}/events/${event}`);
  await a.waitForFunction(() => document.querySelector('#event-summary')?.textContent?.includes('finished'), null, { timeout: 15000 });
  const after = await standings(a);
  const crosstable = await a.locator('#crosstable tbody tr').allInnerTexts();

  // The ladder: both join from the events page's link; the phone challenges the desktop and
  // lands in the game.
  await a.click('nav a[href="/events"]');
  await a.click('#ladder-links a[href="/ladders/keltis-card"]');
  await a.click('#ladder-join');
  await a.waitForSelector('#ladder-leave');
  await b.goto(`${base}/ladders/keltis-card`);
  await b.locator('#ladder-join').tap();
  await b.waitForSelector('#ladder button.challenge');
  const rungs = await b.locator('#ladder tbody tr').allInnerTexts();
  await b.locator('#ladder button.challenge').tap();
  await b.waitForURL(/\/games\/\d+$/);
  const challengeGame = Number(/(\d+)$/.exec(b.url())[1]);
  console.log(JSON.stringify({ event, before, summary, game, after, crosstable, rungs, challengeGame, outside }));
} finally {
  await browser.close();
}
