// The installable web app: the manifest has no installability errors (the DevTools protocol's
// Page.getAppManifest and Page.getInstallabilityErrors), the service worker controls the page,
// the shell opens offline and says so, and a push delivered to the service worker
// (ServiceWorker.deliverPushMessage) shows a notification grouped per game that leads to the game.
// A click on that notification leads the open window to the game (the click is dispatched in the
// service worker, as the browser would: headless chromium shows no notification to click).
// Usage: node installable.mjs <base> <name> <game id>. Prints one JSON line.
import { DESKTOP, launch, register, watchOutside } from './lib.mjs';

const [base, name, gameId] = process.argv.slice(2);
const browser = await launch();
const outside = [];
try {
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.grantPermissions(['notifications'], { origin: base });
  const page = await context.newPage();
  watchOutside(page, base, outside);
  const cdp = await context.newCDPSession(page);
  await register(page, base, name);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await page.waitForSelector('#variant');
  const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
  const manifest = await cdp.send('Page.getAppManifest');
  const installability = await cdp.send('Page.getInstallabilityErrors');

  // A push to the service worker: a notification, tagged per game, with the game's page.
  const registrations = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');
  for (let i = 0; i < 50 && !registrations.some((r) => !r.isDeleted); i++) await page.waitForTimeout(100);
  const registrationId = registrations.find((r) => !r.isDeleted)?.registrationId;
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: base,
    registrationId,
    data: JSON.stringify({ kind: 'your_turn', game_id: Number(gameId), title: `Your turn in game ${gameId}`, body: 'Open the game', url: `/games/${gameId}`, tag: `game-${gameId}` }),
  });
  let notifications = [];
  for (let i = 0; i < 50 && notifications.length === 0; i++) {
    await page.waitForTimeout(100);
    notifications = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications())
      .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })));
  }

  // The click: the service worker's own handler, with the notification the push showed. The
  // lifetime extension of a dispatched event is refused (it is not the browser's), so the
  // navigation is what shows the handler worked.
  const [worker] = context.serviceWorkers();
  const clicked = await worker.evaluate(async () => {
    const [notification] = await self.registration.getNotifications();
    try {
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    } catch (e) {
      return String(e);
    }
    return 'dispatched';
  });
  await page.waitForURL(new RegExp(`/games/${gameId}$`), { timeout: 10000 });
  await page.waitForSelector('#turn');
  const afterClick = { url: page.url(), heading: await page.locator('h1').innerText(), clicked };

  // Offline: the shell still opens, on any screen's address, and says it is offline.
  await context.setOffline(true);
  await page.goto(`${base}/games/7`);
  await page.waitForSelector('header .brand');
  await page.waitForFunction(() => (document.querySelector('#status')?.textContent || '').includes('offline'), null, { timeout: 10000 });
  const offline = { status: await page.locator('#status').innerText(), title: await page.title() };
  await context.setOffline(false);

  console.log(JSON.stringify({
    controlled,
    manifestErrors: manifest.errors,
    manifestUrl: manifest.url,
    installability: installability.installabilityErrors,
    notifications,
    afterClick,
    offline,
    outside,
  }));
} finally {
  await browser.close();
}
