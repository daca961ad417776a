// Two people in two browsers: one at a desktop creates a Keltis Card game, the other, on a phone
// (touch), finds it among the open games and joins. Each then sees the other's moves appear
// without reloading, for several turns. A second tab that missed a move is told and reloaded.
// Usage: node two_players.mjs <server base URL> <name A> <name B>. Prints one JSON line.
import { DESKTOP, PHONE, act, createGame, launch, register, watchOutside } from './lib.mjs';

const [base, nameA, nameB] = process.argv.slice(2);
const browser = await launch();
const outside = [];
try {
  const a = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  const b = await (await browser.newContext(PHONE)).newPage();
  watchOutside(a, base, outside);
  watchOutside(b, base, outside);
  await register(a, base, nameA);
  const id = await createGame(a, { variant: 'keltis-card' });
  await register(b, base, nameB);
  const join = b.locator('#open-games li', { hasText: `#${id} ` }).getByRole('button', { name: 'Join' });
  await join.tap();
  await b.waitForURL(new RegExp(`/games/${id}$`));
  // The creator's page was waiting for players: the start arrives live.
  await a.waitForSelector('.hand button.card', { timeout: 10000 });

  const seen = [];
  const pages = { [nameA]: a, [nameB]: b };
  for (let turn = 0; turn < 6; turn++) {
    const [mover, watcher] = (await a.locator('#turn').innerText()) === 'Your turn' ? [a, b] : [b, a];
    const before = await watcher.locator('#turn').innerText();
    const navigations = [];
    watcher.on('framenavigated', (f) => navigations.push(f.url()));
    // One whole turn: a card played or discarded, then a draw (until the turn passes).
    for (let i = 0; i < 10 && (await mover.locator('#turn').innerText()) === 'Your turn'; i++) {
      await act(mover).catch(() => null);
      await mover.waitForTimeout(100);
    }
    await watcher.waitForFunction(() => document.querySelector('#turn')?.textContent === 'Your turn', null, { timeout: 10000 });
    seen.push({
      mover: mover === a ? nameA : nameB,
      before,
      after: await watcher.locator('#turn').innerText(),
      reloaded: navigations.length > 0,
    });
    watcher.removeAllListeners('framenavigated');
  }

  // A second tab of the first player that hears nothing live: its move comes too late, and the
  // page says so and reloads the game.
  const stale = await a.context().newPage();
  await stale.route('**/api/v1/stream-tickets', (route) => route.abort());
  for (let i = 0; i < 20 && (await a.locator('#turn').innerText()) !== 'Your turn'; i++) {
    await act(b).catch(() => null);
    await b.waitForTimeout(200);
  }
  await stale.goto(a.url());
  await stale.waitForSelector('button.card[data-playable="true"]');
  await act(a); // the first tab plays a card: the second tab's view is now one version behind
  await a.waitForSelector('button[data-decision="draw_deck"]');
  await act(stale);
  await stale.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('Someone else moved first'), null, { timeout: 10000 });
  const staleStatus = await stale.locator('#status').innerText();
  const staleOffersDraw = !!(await stale.waitForSelector('button[data-decision="draw_deck"]', { timeout: 5000 }).catch(() => null));
  console.log(JSON.stringify({ id, seen, staleStatus, staleOffersDraw, outside, players: Object.keys(pages) }));
} finally {
  await browser.close();
}
