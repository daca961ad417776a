// What the browser tests share: Debian's chromium, registering, creating a game in the lobby,
// playing a game to its end by clicking, the first load's size and the axe-core check.
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** Seconds spent in each named part of a script (`lap(name)` ends the part running), for the
 * report: where a browser test's time goes. */
export function stopwatch() {
  const times = {};
  let last = performance.now();
  return {
    times,
    lap(name) {
      const now = performance.now();
      times[name] = Math.round((times[name] ?? 0) * 1000 + (now - last)) / 1000;
      last = now;
    },
  };
}

/** Debian's chromium, without the background connections this machine's network refuses. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Notes every request that leaves the server. */
export function watchOutside(page, base, outside) {
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) outside.push(r.url());
  });
}

export async function register(page, base, name) {
  await page.goto(base + '/');
  await page.waitForSelector('#name');
  await page.fill('#name', name);
  await page.fill('#password', 'browser-test-password');
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForSelector('#variant');
}

/** Logs in as `name` at `url` (the lobby, or a link that asks for a session first); the caller
 * waits for the page it expects. */
export async function logIn(page, url, name, password = 'correct horse') {
  await page.goto(url);
  await page.waitForSelector('#name');
  await page.fill('#name', name);
  await page.fill('#password', password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Creates a game in the lobby; returns its id once the game page shows. */
export async function createGame(page, { variant, players = '2', bot = '', timeControl = 'none' }) {
  await page.selectOption('#variant', variant);
  await page.selectOption('#players', players);
  await page.selectOption('#bot', bot);
  await page.selectOption('#time-control', timeControl);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL(/\/games\/\d+$/);
  await page.waitForSelector('#turn');
  return Number(/(\d+)$/.exec(page.url())[1]);
}

/** How many moves waited for a second tap ("tap again to confirm", on by default on touch). */
export const confirmations = { count: 0 };

/** Activates `element` as a player would: a click, or with `keyboard` the focus and Enter; a move
 * armed by it (to confirm) is pressed again. */
async function press(page, element, keyboard) {
  if (keyboard) {
    await element.focus();
    await page.keyboard.press('Enter');
  } else {
    await element.click({ timeout: 2000 });
  }
  const touch = await page.evaluate(() => matchMedia('(pointer: coarse)').matches);
  const armed = touch ? await page.waitForSelector('.actions button.armed', { timeout: 300 }).catch(() => null) : null;
  if (armed) {
    confirmations.count++;
    if (keyboard) {
      await armed.focus();
      await page.keyboard.press('Enter');
    } else {
      await armed.click({ timeout: 2000 });
    }
  }
}

/**
 * One action of the player to act, by clicking as a player would (or by keyboard: focus and
 * Enter): a draw when one is offered; else a playable card, then a lit space on the board (one
 * pawn can go there) or one of the chosen card's decisions; else a lit space (a free step) or a
 * decision that needs no card. Returns what was done, or null when nothing could be (not our
 * turn).
 */
export async function act(page, { keyboard = false, discard = false } = {}) {
  const draw = await page.$('button[data-decision="draw_deck"]');
  if (draw) {
    await press(page, draw, keyboard);
    return 'draw';
  }
  const card = await page.$('button.card[data-playable="true"]');
  if (card) {
    await press(page, card, keyboard);
    await page.waitForSelector('button[data-decision]', { timeout: 2000 });
    const thrown = discard ? await page.$('button[data-decision^="discard"]') : null;
    if (thrown) {
      await press(page, thrown, keyboard);
      return 'discard';
    }
    // The board is drawn once its layout has arrived: give it a moment.
    const space = await page.waitForSelector('svg g.target[data-choices="1"]', { timeout: 300 }).catch(() => null);
    if (space) {
      await press(page, space, keyboard);
      return 'board';
    }
    const decision = await page.$('button[data-decision]:not([data-decision="draw_deck"]):not([data-decision="draw_pile"])');
    if (decision) {
      await press(page, decision, keyboard);
      return 'card';
    }
    return null;
  }
  const step = await page.$('svg g.target[data-choices="1"]');
  if (step) {
    await press(page, step, keyboard);
    return 'board';
  }
  const other = await page.$('button[data-decision]');
  if (other) {
    await press(page, other, keyboard);
    return 'other';
  }
  return null;
}

/** One move by keyboard alone on the board: focus a playable card, Enter, then a lit space,
 * Enter, and when several pawns can go there, Enter on the first pawn's decision (focused by the
 * page). True when the move was made. */
export async function keyboardMove(page) {
  // Not every card reaches a space (some can only be discarded): try each in turn.
  const held = await page.$$eval('.hand button.card', (b) => b.length);
  let space = null;
  const cards = await page.$$eval('button.card[data-playable="true"]', (b) => b.map((e) => e.dataset.index));
  for (const index of cards) {
    await page.focus(`button.card[data-index="${index}"]`);
    await page.keyboard.press('Enter');
    space = await page.waitForSelector('svg g.target', { timeout: 1000 }).catch(() => null);
    if (space) break;
  }
  if (!space) return false;
  const several = (await space.getAttribute('data-choices')) !== '1';
  await space.focus();
  await page.keyboard.press('Enter');
  if (several) {
    await page.waitForFunction(() => document.activeElement?.matches('.actions button'), null, { timeout: 2000 });
    await page.keyboard.press('Enter');
  }
  // The card left the hand (a tile's free step or choice may come before the draw).
  return page.waitForFunction((n) => document.querySelectorAll('.hand button.card').length === n - 1, held, { timeout: 5000 })
    .then(() => true, () => false);
}

/** Plays until the result shows (`before` runs before each action, `onClick` after one); returns
 * the actions by kind and, with `keyboard`, how often the focus was left on the page's body after
 * an action (`lostFocus`). */
export async function playToEnd(page, { limit = 6000, onClick = async () => {}, before = async () => {}, keyboard = false } = {}) {
  const clicks = { draw: 0, board: 0, card: 0, other: 0, lostFocus: 0 };
  let idle = 0;
  for (let i = 0; i < limit && !(await page.$('#result')); i++) {
    // Nothing to act on for 60 looks of 2 s, against a bot that moves at once: the page is stuck.
    if (idle > 60) {
      const game = Number(/\/games\/(\d+)/.exec(page.url())?.[1]);
      throw new Error(`the game page stopped: ${JSON.stringify({ clicks, ...await stuck(page, game, '#turn') })}`);
    }
    // While the bot moves, wait in the page for something to act on (or the result), looking
    // every 50 ms: the queries of `act` each round trip through the browser, and an idle look
    // cost as many of them as a move (half the looks of a game were idle).
    await page.waitForFunction(() => document.querySelector(
      '#result, button[data-decision], button.card[data-playable="true"], svg g.target[data-choices="1"]',
    ), null, { polling: 50, timeout: 2000 }).catch(() => null);
    let what = null;
    try {
      await before(clicks);
      what = await act(page, { keyboard });
      if (what) {
        clicks[what]++;
        await onClick(clicks);
      }
    } catch {
      // The page was redrawn under the click (the bot moved): look again.
    }
    if (!what) await page.waitForTimeout(30);
    idle = what ? 0 : idle + 1;
    if (keyboard && await page.evaluate(() => document.activeElement === document.body || document.activeElement === null)) {
      clicks.lostFocus++;
    }
  }
  if (!(await page.$('#result'))) throw new Error(`the game did not end: ${JSON.stringify(clicks)}`);
  return clicks;
}

/** What a page that stopped shows (its turn line, read from `turnLine`) against what the server
 * says of game `id`: whose turn, the version, what the player may do. */
export async function stuck(page, id, turnLine) {
  const shown = await page.locator(turnLine).innerText().catch((e) => `unreadable: ${e}`);
  const server = await page.evaluate(async (game) => {
    const token = JSON.parse(localStorage.getItem('keltis.session') ?? '{}').access_token;
    const r = await fetch(`/api/v1/games/${game}`, { headers: { authorization: `Bearer ${token}` } });
    const g = await r.json();
    return { http: r.status, status: g.status, version: g.version, yourSeat: g.your_seat, toAct: g.state?.to_act, legal: g.state?.legal_decisions?.length };
  }, id).catch((e) => `unreadable: ${e}`);
  return { shown, server };
}

/** Opens `url` in a new context of the same player (their session, an empty cache) with
 * `options`, waits for `ready` to show and the page to settle, and returns what `look` finds. */
async function inFreshPage(browser, context, options, url, ready, look) {
  const fresh = await browser.newContext({ viewport: DESKTOP, ...options, storageState: await context.storageState() });
  try {
    const page = await fresh.newPage();
    await page.goto(url);
    await page.waitForSelector(ready);
    await page.waitForTimeout(500);
    return await look(page);
  } finally {
    await fresh.close();
  }
}

/** What opening `url` transfers with an empty cache, as the browser's resource timing counts it
 * (the document, scripts, styles, board layout and API calls, headers included). */
export function firstLoad(browser, context, url) {
  return inFreshPage(browser, context, {}, url, '#turn', (page) => page.evaluate(() => performance.getEntries()
    .filter((e) => 'transferSize' in e)
    .reduce((n, e) => n + e.transferSize, 0)));
}

/** axe-core's serious and critical findings on `url` (WCAG 2.1 A and AA rules), as `id: target`;
 * `options` for the page (`{ colorScheme: 'dark' }`). */
export function accessibility(browser, context, url, ready, options = {}) {
  // axe is injected as a script of its own, which the page's policy would refuse.
  return inFreshPage(browser, context, { bypassCSP: true, ...options }, url, ready, async (page) => {
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const found = await page.evaluate(async () => {
      // eslint-disable-next-line no-undef
      const r = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
    });
    return found.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.targets.slice(0, 3).join(', ')}`);
  });
}

/** The game page at desktop size (whole) and phone size (the first screen, as a player sees it),
 * light and dark, saved as
 * `<dir>/<variant>-desktop.png`, `-phone.png`, `-desktop-dark.png` and `-phone-dark.png`. */
export async function screenshots(browser, context, url, dir, variant) {
  for (const [size, options] of [['desktop', {}], ['phone', PHONE]]) {
    for (const [suffix, colorScheme] of [['', 'light'], ['-dark', 'dark']]) {
      await inFreshPage(browser, context, { ...options, colorScheme }, url, '#turn',
        (page) => page.screenshot({ path: `${dir}/${variant}-${size}${suffix}.png`, fullPage: size === 'desktop' }));
    }
  }
}
