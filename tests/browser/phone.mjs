// The table on a phone, at 360 x 740 and 412 x 915, for every variant: during our turns the page
// is never wider than the screen and the hand and the choices are inside the screen without
// scrolling, the draw pile's count too, and a card chosen shows every space it lights above the
// dock; and no visible text or accessible name shows an internal id (`green-1`, `r3c2`,
// `points_3`, `pawn 2`). A few turns are played by tapping, each move confirmed by a second tap
// (on by default on a touch screen). The dock stays under a quarter of the screen with the whole
// hand on one line; while a discard pile may be drawn from, the piles show above the dock (the
// first and third turns discard, so that one may); the seats' rows get the screen's width. Then
// the player resigns: the finished game's page fits, without the dock or the command line.
// Usage: node phone.mjs <base> <name prefix>. Prints one JSON line.
import { confirmations, createGame, launch, register, act, watchOutside } from './lib.mjs';

const [base, prefix] = process.argv.slice(2);
const SIZES = [[360, 740], [412, 915]];
const VARIANTS = ['keltis', 'neue-wege', 'keltis-card'];
const IDS = /\b(green|yellow|brown|blue|pink|gray)-\d+\b|\br\d+c\d+\b|points_\d|wish_stone|\bpawn \d\b|\bbot-\w+ \d/;

/** Whether the discard piles may be drawn from now, and if so whether they show above the dock. */
function piles() {
  if (!document.querySelector('.actions button[data-decision="draw_pile"]')) return null;
  const r = document.querySelector('.piles')?.getBoundingClientRect();
  const room = document.querySelector('.dock')?.getBoundingClientRect().top ?? window.innerHeight;
  return !!r && r.top >= 0 && r.bottom <= room + 1;
}

/** What is wrong with the page now: its overflow past the screen's `width` (a phone's layout
 * viewport grows with a page too wide, so the screen's own width is the measure), the parts out
 * of view, ids in its words. @param {number} width */
function look(width) {
  const inView = (/** @type {Element | null} */ e) => {
    if (!e) return true;
    const r = e.getBoundingClientRect();
    return r.height === 0 || (r.top >= 0 && r.bottom <= window.innerHeight + 1);
  };
  const words = [document.body.innerText];
  for (const e of document.querySelectorAll('[aria-label], [title]')) {
    words.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '');
  }
  for (const e of document.querySelectorAll('title')) words.push(e.textContent || '');
  const dock = document.querySelector('.dock')?.getBoundingClientRect();
  const cards = [...document.querySelectorAll('.dock .hand button.card')].map((c) => Math.round(c.getBoundingClientRect().top));
  const rows = document.querySelector('table.seats td.rows')?.getBoundingClientRect();
  return {
    dockShare: dock ? dock.height / window.innerHeight : 0,
    handSize: cards.length,
    actions: document.querySelectorAll('.dock .actions button').length,
    handLines: new Set(cards).size,
    rowsShare: rows ? rows.width / width : 1,
    overflow: Math.max(document.documentElement.scrollWidth, window.innerWidth) - width,
    handInView: inView(document.querySelector('.hand')),
    drawPileInView: inView(document.querySelector('#draw-pile')),
    actionsInView: inView(document.querySelector('.actions')),
    words: words.join('\n'),
  };
}

const browser = await launch();
const outside = [];
const report = [];
try {
  let n = 0;
  for (const variant of VARIANTS) {
    for (const [width, height] of SIZES) {
      const context = await browser.newContext({ viewport: { width, height }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      const page = await context.newPage();
      watchOutside(page, base, outside);
      await register(page, base, `${prefix}${n++}`);
      const seen = {
        variant, size: `${width}x${height}`, turns: 0, overflow: 0, lobbyOverflow: 0, outOfView: 0, pileOutOfView: 0,
        litChecked: 0, litMissing: 0, litHidden: 0, ids: [], dockShare: 0, dockMeasured: 0, handWrapped: 0, rowsShare: 1,
        pilesChecked: 0, pilesHidden: 0, pilesLate: 0,
      };
      // The lobby first: the header and the form fit too.
      seen.lobbyOverflow = (await page.evaluate(look, width)).overflow;
      await createGame(page, { variant, bot: 'bot-greedy' });
      for (let i = 0; i < 12 && seen.turns < 4; i++) {
        await page.waitForFunction(() => document.querySelector('#turn')?.textContent === 'Your turn'
          && document.querySelector('.actions button, button.card[data-playable="true"]'), null, { timeout: 20000 });
        await page.waitForTimeout(200);
        const now = await page.evaluate(look, width);
        seen.turns++;
        seen.overflow = Math.max(seen.overflow, now.overflow);
        if (!now.drawPileInView) seen.pileOutOfView++;
        // The dock's height where it holds the hand alone (a turn's start: choose a card).
        if (now.actions === 0 && now.handSize >= 8) {
          seen.dockMeasured++;
          seen.dockShare = Math.max(seen.dockShare, Math.round(now.dockShare * 100) / 100);
        }
        if (now.handLines > 1) seen.handWrapped++;
        seen.handSize = Math.max(seen.handSize ?? 0, now.handSize);
        seen.rowsShare = Math.min(seen.rowsShare, Math.round(now.rowsShare * 100) / 100);
        // A card chosen lights its spaces: every one of them shows above the dock. The first
        // playable card whose choices go to a space is tried (a card that moves no pawn can only
        // be discarded, X3, and lights nothing); each is put back, and the turn played as usual.
        const playable = variant === 'keltis-card' ? []
          : await page.$$eval('button.card[data-playable="true"]', (bs) => bs.map((b) => b.dataset.index));
        for (const index of playable) {
          // Each tap redraws the hand: the card is found again by its place.
          const card = page.locator(`button.card[data-index="${index}"]`);
          await card.click();
          await page.waitForSelector('.actions button[data-decision]', { timeout: 3000 }).catch(() => null);
          const goesSomewhere = await page.$('.actions button[data-to]');
          if (goesSomewhere) {
            const lit = await page.waitForSelector('svg g.target', { timeout: 3000 }).catch(() => null);
            if (!lit) seen.litMissing++;
            else {
              await page.waitForTimeout(100);
              seen.litChecked++;
              const hidden = await page.evaluate(() => {
                const room = document.querySelector('.dock')?.getBoundingClientRect().top ?? window.innerHeight;
                return [...document.querySelectorAll('svg g.target')].filter((g) => {
                  const r = g.getBoundingClientRect();
                  return r.top < 0 || r.bottom > room + 1;
                }).length;
              });
              if (hidden) seen.litHidden++;
            }
          }
          await card.click();
          await page.waitForTimeout(100);
          if (goesSomewhere) break;
        }
        if (!now.handInView || !now.actionsInView) {
          seen.outOfView++;
          seen.example ??= await page.evaluate(() => [...document.querySelectorAll('.actions button')].map((b) => b.textContent));
        }
        const id = IDS.exec(now.words);
        if (id && !seen.ids.includes(id[0])) seen.ids.push(id[0]);
        // Play the turn out (a card, its place, the draw), checking the page between actions.
        for (let k = 0; k < 6; k++) {
          const done = await act(page, { discard: seen.turns % 2 === 1 }).catch(() => null);
          await page.waitForTimeout(100);
          const mid = await page.evaluate(look, width);
          // The page scrolls the piles up a moment after it is drawn (and on a loaded machine
          // the draw itself may come late): piles still hidden are looked at again for a second.
          let pilesShown = await page.evaluate(piles);
          for (let wait = 0; pilesShown === false && wait < 10; wait++) {
            await page.waitForTimeout(100);
            pilesShown = await page.evaluate(piles);
            if (pilesShown !== false) seen.pilesLate++;
          }
          if (pilesShown != null) {
            seen.pilesChecked++;
            if (!pilesShown) seen.pilesHidden++;
          }
          seen.overflow = Math.max(seen.overflow, mid.overflow);
          if (!done || !(await page.$('.actions button, button.card[data-playable="true"]'))) break;
          if (!mid.handInView || !mid.actionsInView) {
            seen.outOfView++;
            seen.example ??= await page.evaluate(() => [...document.querySelectorAll('.actions button')].map((b) => b.textContent));
          }
        }
      }
      // Then resigned: the finished game's page has no dock and no command line (it can play
      // nothing), so no blank band holds their place, and it still fits the screen.
      page.on('dialog', (d) => d.accept());
      await page.click('button.resign');
      await page.waitForSelector('#result');
      seen.finished = await page.evaluate((w) => ({
        overflow: Math.max(document.documentElement.scrollWidth, window.innerWidth) - w,
        dock: !!document.querySelector('.dock'),
        padding: getComputedStyle(document.querySelector('.game')).paddingBottom,
        commandLine: [...document.querySelectorAll('#command-line, .command-line')].some((e) => e.getClientRects().length > 0),
      }), width);
      report.push(seen);
      await context.close();
    }
  }
  console.log(JSON.stringify({ report, outside, confirmations: confirmations.count }));
} finally {
  await browser.close();
}
