// Play now and a rematch, in two browsers: a desktop and a phone each tap "Play now" for Keltis
// Card and land in the same game; the phone resigns; at the end screen the desktop offers a
// rematch, the phone (told live) accepts, and both land in the new game. Then the desktop makes
// an invitation-only game and shares its link; the phone opens the link and takes the seat.
// Usage: node play_now.mjs <server base URL> <name A> <name B>. Prints one JSON line.
import { DESKTOP, PHONE, createGame, launch, register, watchOutside } from './lib.mjs';

const [base, nameA, nameB] = process.argv.slice(2);
const browser = await launch();
const outside = [];
const gameOf = (page) => Number(/\/games\/(\d+)$/.exec(page.url())?.[1] ?? 0);
try {
  const a = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  const b = await (await browser.newContext(PHONE)).newPage();
  watchOutside(a, base, outside);
  watchOutside(b, base, outside);
  await register(a, base, nameA);
  await a.selectOption('#pn-variant', 'keltis-card');
  await a.click('#play-now');
  // The desktop waits: its request is listed with a cancel button.
  await a.waitForSelector('#searching li button.cancel');
  const searching = await a.locator('#pn-status').innerText();
  const waitingItem = await a.locator('#searching li').first().innerText();

  await register(b, base, nameB);
  await b.selectOption('#pn-variant', 'keltis-card');
  await b.locator('#play-now').tap();
  await b.waitForURL(/\/games\/\d+$/, { timeout: 10000 });
  await a.waitForURL(/\/games\/\d+$/, { timeout: 15000 });
  const first = { a: gameOf(a), b: gameOf(b) };
  await a.waitForSelector('#turn');
  await b.waitForSelector('#turn');

  // The phone resigns; both see the end and the rematch panel.
  b.on('dialog', (d) => d.accept());
  await b.locator('button.resign').tap();
  await a.waitForSelector('#rematch-offer', { timeout: 15000 });
  await b.waitForSelector('#rematch-offer', { timeout: 15000 });
  await a.click('#rematch-offer');
  await a.waitForSelector('#rematch-status');
  const offered = await a.locator('#rematch-status').innerText();
  // The phone hears of the offer live and accepts.
  await b.waitForSelector('#rematch-accept', { timeout: 15000 });
  const told = await b.locator('#rematch-status').innerText();
  await b.locator('#rematch-accept').tap();
  await b.waitForFunction((old) => !location.pathname.endsWith(`/${old}`), first.b, { timeout: 15000 });
  await a.waitForFunction((old) => !location.pathname.endsWith(`/${old}`), first.a, { timeout: 15000 });
  const second = { a: gameOf(a), b: gameOf(b) };
  await b.waitForSelector('#turn');

  await a.goto(base + '/');
  await a.check('#invite-only');
  const challenged = await createGame(a, { variant: 'keltis-card' });
  await a.click('#share-link');
  await a.waitForSelector('#challenge-link:not([hidden])');
  const shared = await a.inputValue('#challenge-link');
  await b.goto(base + new URL(shared).pathname);
  await b.waitForURL(new RegExp(`/games/${challenged}$`), { timeout: 10000 });
  await a.waitForSelector('.hand button.card', { timeout: 10000 });
  console.log(JSON.stringify({ searching, waitingItem, first, offered, told, second, shared, challenged, joined: gameOf(b), outside }));
} finally {
  await browser.close();
}
