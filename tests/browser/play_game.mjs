// Registers in the web client, creates a game of <variant> against bot-greedy (3 days per move)
// and plays it to the end by keyboard alone (focus and Enter), noting whenever the focus is left
// on the page's body after an action; then steps through its record in the viewer. Checks the
// game page, the record and the help with axe-core (the lobby, the profile and the leaderboard
// in the Keltis Card run only: the same pages for every variant) and measures the game page's
// first load.
// Usage: node play_game.mjs <server base URL> <new user name> <variant>. Prints one JSON line.
// SCREENSHOT_DIR=<dir> (from the repository's root) saves the game page at desktop and phone
// size, mid-game.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DESKTOP, accessibility, createGame, firstLoad, keyboardMove, launch, playToEnd, register, screenshots,
  stopwatch, watchOutside,
} from './lib.mjs';

const [base, name, variant] = process.argv.slice(2);
const browser = await launch();
const outside = [];
const watch = stopwatch();
// The pages that are the same whatever the variant (the lobby, a player's profile, a
// leaderboard) are checked by axe-core in the Keltis Card game's run only; each variant's game
// page, record and help in its own.
const sharedPages = variant === 'keltis-card';
try {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  watchOutside(page, base, outside);
  // Console errors from the first page to the finished game (the issue's "no console error
  // from start to finished game"); the fresh finished page is watched apart below.
  const playConsole = [];
  page.on('console', (m) => { if (m.type() === 'error') playConsole.push(`${m.text()} ${m.location().url}`); });
  page.on('pageerror', (e) => playConsole.push(String(e)));
  await register(page, base, name);
  const lobbyProblems = sharedPages ? [
    ...await accessibility(browser, context, base + '/', '#my-games'),
    ...(await accessibility(browser, context, base + '/', '#my-games', { colorScheme: 'dark' })).map((p) => `dark ${p}`),
  ] : [];
  watch.lap('lobby');
  await createGame(page, { variant, bot: 'bot-greedy', timeControl: 'three_days' });
  const gameUrl = page.url();
  const firstLoadBytes = await firstLoad(browser, context, gameUrl);
  const clock = await page.$$eval('td.clock', (cells) => cells.map((c) => c.textContent));
  // Every board space shows its ring (a space of a colour the style sheet forgot has none).
  const unringed = await page.$$eval('svg .space', (spaces) => spaces
    .map((g) => [g.getAttribute('class'), getComputedStyle(g.querySelector('circle')).stroke])
    .filter(([, stroke]) => stroke === 'none' || stroke === 'rgba(0, 0, 0, 0)')
    .map(([cls]) => cls));
  // The board games' first move by keyboard alone (the seat to start is drawn at random).
  await page.waitForFunction(() => document.querySelector('#turn')?.textContent === 'Your turn', null, { timeout: 20000 });
  const keyboard = variant === 'keltis-card' ? null : await keyboardMove(page);
  watch.lap('create');
  let gameProblems = null;
  /** The move log against the server's events, on one of our turns after the bot has moved. */
  let log = null;
  const clicks = await playToEnd(page, {
    keyboard: true,
    before: async (c) => {
      if (log == null && c.draw >= 3 && (await page.locator('#turn').innerText()) === 'Your turn') {
        const seen = await page.evaluate(async (id) => {
          const token = JSON.parse(localStorage.getItem('keltis.session') || '{}').access_token;
          const r = await fetch(`/api/v1/games/${id}/events`, { headers: { Authorization: `Bearer ${token}` } });
          const all = await r.json();
          const events = all.filter((e) => e.kind === 'decided');
          // The record's moves (the clock's time-outs are moves too): the log numbers each entry
          // by its place among them.
          const moves = all.filter((e) => e.kind === 'decided' || e.kind === 'timed_out').map((e) => e.seq);
          const game = await (await fetch(`/api/v1/games/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
          const mine = events.map((e) => e.data.seat).lastIndexOf(game.your_seat);
          const since = events.slice(mine + 1);
          // Only a page that shows the same moves as the server (a move still on its way, by
          // the page or the bot, would make them differ) is compared.
          const latest = Math.max(-1, ...[...document.querySelectorAll('#log li[data-seq]')].map((li) => Number(li.getAttribute('data-seq'))));
          if (!events.length || latest !== events[events.length - 1].seq) return { events: [] };
          const entries = [...document.querySelectorAll('#log li[data-seq]')];
          const marker = document.querySelector('#log .since-mark');
          return {
            misnumbered: entries.filter((li) => /** @type {HTMLLIElement} */ (li).value !== moves.indexOf(Number(li.getAttribute('data-seq'))) + 1).length,
            numbered: entries.length,
            markerNumbered: !!marker && getComputedStyle(marker).display === 'list-item' && getComputedStyle(marker).listStyleType !== 'none',
            events: since.map((e) => e.data.decision.type),
            shown: [...document.querySelectorAll('#log li.since')].map((li) => li.textContent),
            marked: document.querySelectorAll('#log .since-mark').length,
          };
        }, Number(/(\d+)$/.exec(gameUrl)[1]));
        // The start of a turn of ours, after the bot's: its moves are the ones since.
        if (seen.events.length) log = seen;
      }
    },
    onClick: async (c) => {
      // Mid-game screenshots on request only: fresh pages of the same player while the game is
      // played (axe-core's below, once it is over) once left the game page waiting for good.
      if (gameProblems == null && c.draw >= 10) {
        gameProblems = [];
        if (process.env.SCREENSHOT_DIR) {
          const root = fileURLToPath(new URL('../..', import.meta.url));
          await screenshots(browser, context, gameUrl, resolve(root, process.env.SCREENSHOT_DIR), variant);
        }
      }
    },
  });
  const result = await page.locator('#result').innerText();
  watch.lap('play');
  // At the end: "Game over" once (the turn line; the result is the ranking), the last entry of
  // the log numbered as the record's last move.
  const ending = await page.evaluate(() => ({
    gameOver: [...document.querySelectorAll('main *')].filter((e) => e.children.length === 0 && e.textContent?.trim() === 'Game over').length,
    lastNumber: Number(/** @type {HTMLLIElement | null} */ ([...document.querySelectorAll('#log li[data-seq]')].pop())?.value ?? 0),
  }));
  // axe-core on the game page (finished: the board, the rows, the result), light and dark.
  gameProblems = [
    ...await accessibility(browser, context, gameUrl, '#turn'),
    ...(await accessibility(browser, context, gameUrl, '#turn', { colorScheme: 'dark' })).map((p) => `dark ${p}`),
  ];
  // The finished game's page, opened afresh, logs no console error (no offer of a rematch yet is
  // a normal state, not a 404): watched until the rematch panel has been drawn from its answer.
  const finishedConsole = [];
  {
    const fresh = await context.newPage();
    fresh.on('console', (m) => { if (m.type() === 'error') finishedConsole.push(m.text()); });
    fresh.on('pageerror', (e) => finishedConsole.push(String(e)));
    await fresh.goto(gameUrl);
    await fresh.waitForSelector('#rematch-offer', { timeout: 60000 });
    await fresh.close();
  }
  watch.lap('finished');
  const scores = await page.$$eval('td.score', (cells) => cells.map((c) => Number(c.textContent)));
  // The move log by keyboard: its one tab stop is the newest entry; the arrow keys step back
  // through it, and the entry with the focus shows its move's space on the board.
  // The pointer out of the way first: an entry under it shows its space too (the page laid out
  // anew at the end can move an entry under a pointer left where the last click was).
  await page.mouse.move(0, 0);
  await page.focus('#log li[tabindex="0"]');
  // (The last moves of a game are often draws and discards, which go to no space: it steps back
  // until a move to a space has shown, 8 steps at least, through the whole log if need be. A game
  // can end with a long run of discards, so the log may hold no move to a space at all: counted.)
  const logKeys = {
    entries: await page.locator('#log li[data-seq]').count(),
    withSpace: await page.locator('#log li[data-seq][data-to]').count(),
    presses: 0, stepped: 0, shown: 0, focusedEntry: 0,
  };
  for (let i = 0; i < logKeys.entries - 1 && (i < 8 || (logKeys.shown === 0 && logKeys.withSpace > 0)); i++) {
    logKeys.presses++;
    const before = await page.evaluate(() => document.activeElement?.getAttribute('data-seq'));
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(50);
    const now = await page.evaluate(() => {
      const e = document.activeElement;
      const to = e?.getAttribute('data-to');
      const shown = [...document.querySelectorAll('svg g.shown')].map((g) => g.getAttribute('data-id'));
      return { seq: e?.getAttribute('data-seq'), inLog: !!e?.closest('#log'), to, shown };
    });
    if (now.inLog) logKeys.focusedEntry++;
    if (now.seq !== before) logKeys.stepped++;
    if (now.to && now.shown.length === 1 && now.shown[0] === now.to) logKeys.shown++;
    // An entry with a space that did not show alone, kept to say why.
    else if (now.to) logKeys.unshown = now;
  }

  // The record viewer: from the game page's link, the deal, then move by move.
  await page.click('#replay-link');
  await page.waitForSelector('#moves li');
  const moves = await page.$$eval('#moves li', (l) => l.length);
  const seen = [await page.locator('#last-move').innerText()];
  for (let i = 0; i < 3; i++) {
    await page.click('button[data-step="next"]');
    await page.waitForFunction((n) => document.querySelector('#step-label')?.textContent?.startsWith(`Move ${n} `), i + 1);
    seen.push(await page.locator('#last-move').innerText());
  }
  await page.click('button[data-step="last"]');
  await page.waitForSelector('#result');
  const replayResult = await page.locator('#result').innerText();
  watch.lap('logAndRecord');
  // The review: asked for from the record, shown once the worker has done it; each mark in the
  // moves list, each player's figures, a line per player; the next mistake a click away.
  await page.click('#review-ask');
  await page.waitForSelector('table.review-summary', { timeout: 240000 });
  watch.lap('reviewWait');
  const review = {
    marks: await page.$$eval('#moves li .mark', (l) => l.map((m) => [Number(m.closest('li')?.dataset.step), m.dataset.mark])),
    rows: await page.locator('table.review-summary tbody tr').count(),
    lines: await page.locator('#review-graph polyline').count(),
    accuracy: await page.$$eval('table.review-summary td.accuracy', (l) => l.map((c) => Number(c.textContent))),
    jumped: null,
  };
  // The reviewed record at a phone's width: the review's table never widens the page.
  await page.setViewportSize({ width: 412, height: 915 });
  // (Laid out again at the next frame.)
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  review.phoneOverflow = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, window.innerWidth) - 412);
  // What reaches past the screen, to say what to fix.
  review.phoneWide = await page.evaluate(() => [...document.querySelectorAll('main *')]
    .filter((e) => e.getBoundingClientRect().right > 413 && !e.closest('.table-scroll'))
    .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} ${Math.round(e.getBoundingClientRect().right)}`));
  await page.setViewportSize(DESKTOP);
  await page.click('button[data-step="first"]');
  await page.waitForFunction(() => document.querySelector('#step-label')?.textContent?.startsWith('Move 0 '));
  const next = await page.$('#next-mistake');
  if (next) {
    await next.click();
    await page.waitForSelector('#judgement[data-mark]');
    review.jumped = {
      label: await page.locator('#step-label').innerText(),
      mark: await page.locator('#judgement').getAttribute('data-mark'),
      text: await page.locator('#judgement').innerText(),
    };
  }
  // (The next mistake may be the game's last decision: then the page is at the end already.)
  const last = page.locator('button[data-step="last"]');
  if (await last.isEnabled()) await last.click();
  await page.waitForSelector('#result');

  // The player's profile, from their name in the result; then the leaderboards.
  await page.locator('#result a.player', { hasText: name }).click();
  await page.waitForURL(new RegExp(`/players/${name}$`));
  await page.waitForSelector('#finished li');
  const profile = {
    heading: await page.locator('h1').innerText(),
    finished: await page.locator('#finished li').count(),
    ratings: await page.locator('table.ratings tbody tr').count(),
    accuracy: await page.$$eval('ul.accuracy li', (l) => l.map((li) => [li.dataset.variant, li.textContent])),
  };
  const profileUrl = page.url();
  // How to play, from the header.
  await page.getByRole('link', { name: 'How to play' }).click();
  await page.waitForSelector('figure.example');
  const help = await page.locator('h1').innerText();
  watch.lap('reviewAndProfile');
  const leaderboardUrl = `${base}/leaderboards/${variant}`;
  const peopleProblems = [];
  const helpUrl = `${base}/help/${variant}`;
  const recordUrl = `${base}/records/${/(\d+)$/.exec(gameUrl)[1]}`;
  const pages = [[recordUrl, '#moves li'], [helpUrl, 'figure.example']];
  if (sharedPages) pages.push([profileUrl, '#finished'], [leaderboardUrl, 'main p, #leaderboard']);
  for (const [url, ready] of pages) {
    for (const colorScheme of ['light', 'dark']) {
      peopleProblems.push(...(await accessibility(browser, context, url, ready, { colorScheme })).map((p) => `${colorScheme} ${url} ${p}`));
    }
  }
  // The lobby's line for the finished game says "over" once.
  await page.goto(base + '/');
  await page.waitForSelector('#my-games li');
  const lobbyLine = await page.locator('#my-games li').first().innerText();
  watch.lap('people');
  console.log(JSON.stringify({
    ending, lobbyLine,
    clicks, keyboard, firstLoadBytes, result, scores, clock, moves, seen, replayResult, review, lobbyProblems, gameProblems,
    gameId: Number(/(\d+)$/.exec(gameUrl)[1]),
    profile, peopleProblems, help, log, logKeys,
    unringed,
    outside,
    finishedConsole,
    playConsole,
    times: watch.times,
  }));
} finally {
  await browser.close();
}
