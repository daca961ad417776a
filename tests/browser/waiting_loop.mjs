// The correspondence loop in a browser: a link to a game (as in an email) opened without a
// session asks to log in, then shows that game; the lobby lists the games waiting first and the
// tab's title counts them; an opponent's move elsewhere updates both live; after a turn, the game
// page offers the next game waiting, and its link opens it. While the opponent moves, the command
// line leaves the next turn as a plan ("plan: 1 then deck"), which the opponent's move plays.
// Usage: node waiting_loop.mjs <base> <name> <password> <game id> <opponent token> <other game id>
// Prints one JSON line.
import { DESKTOP, act, launch, logIn, watchOutside } from './lib.mjs';

const [base, name, password, gameId, opponentToken, otherId] = process.argv.slice(2);
const browser = await launch();
const outside = [];

/** The opponent plays the first legal decisions of game `id` until the turn passes. */
async function opponentTurn(id) {
  const api = (path, init = {}) => fetch(`${base}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${opponentToken}`, 'content-type': 'application/json' },
  }).then((r) => r.json());
  const first = await api(`/games/${id}`);
  for (let i = 0; i < 10; i++) {
    const g = await api(`/games/${id}`);
    if (g.state.to_act !== first.state.to_act) return;
    await api(`/games/${id}/decisions`, {
      method: 'POST',
      body: JSON.stringify({ expected_version: g.version, decision: g.state.legal_decisions[0] }),
    });
  }
}

/** The opponent plays one turn of Keltis Card in game `id`: a card, then a draw. */
async function opponentCardAndDraw(id) {
  const api = (path, init = {}) => fetch(`${base}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${opponentToken}`, 'content-type': 'application/json' },
  }).then((r) => r.json());
  for (let i = 0; i < 2; i++) {
    const g = await api(`/games/${id}`);
    const draw = g.state.legal_decisions.find((d) => d.type === 'draw_deck');
    await api(`/games/${id}/decisions`, {
      method: 'POST',
      body: JSON.stringify({ expected_version: g.version, decision: draw ?? g.state.legal_decisions[0] }),
    });
  }
}

try {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  watchOutside(page, base, outside);
  // The email's link, without a session: log in, then the game.
  await logIn(page, `${base}/games/${gameId}`, name, password);
  await page.waitForSelector('#turn');
  const deepLink = { url: page.url(), heading: await page.locator('h1').innerText(), turn: await page.locator('#turn').innerText() };

  // The lobby: the games waiting first, the count in the title.
  await page.getByRole('link', { name: 'Lobby' }).click();
  await page.waitForSelector('#my-games li strong');
  await page.waitForFunction(() => document.title.startsWith('('));
  const lobby = {
    url: page.url(),
    title: await page.title(),
    first: await page.locator('#my-games li').first().innerText(),
    items: await page.locator('#my-games li').count(),
  };

  // The opponent moves in the other game: it becomes ours, live.
  await opponentTurn(otherId);
  await page.waitForFunction(() => document.title === '(2) Keltis', null, { timeout: 10000 });
  await page.waitForFunction((id) => [...document.querySelectorAll('#my-games li')].slice(0, 2)
    .some((li) => li.textContent.includes(`#${id} `)), otherId, { timeout: 10000 });
  const live = { title: await page.title(), firstTwo: await page.locator('#my-games li').evaluateAll((lis) => lis.slice(0, 2).map((li) => li.textContent)) };

  // Our turn in the first game, by clicking; then the next game waiting is offered.
  await page.goto(`${base}/games/${gameId}`);
  await page.waitForSelector('#turn');
  for (let i = 0; i < 12 && (await page.locator('#turn').innerText()) === 'Your turn'; i++) {
    await act(page).catch(() => null);
    await page.waitForTimeout(150);
  }
  // The next turn, planned at the command line while the opponent moves; the opponent's move
  // plays it at once.
  const ask = async (text) => {
    await page.evaluate(() => { document.querySelector('#command-answer').textContent = ''; });
    await page.fill('#command', text);
    await page.press('#command', 'Enter');
    await page.waitForFunction(() => document.querySelector('#command-answer')?.textContent !== '', null, { timeout: 5000 });
    return page.locator('#command-answer').innerText();
  };
  const plan = { made: await ask('plan: 1 then deck'), asked: await ask('plan') };
  const lastMove = () => Math.max(0, ...[...document.querySelectorAll('#log li[value]')].map((li) => Number(li.getAttribute('value'))));
  const logged = await page.evaluate(lastMove);
  await opponentCardAndDraw(gameId);
  // The page follows: the opponent's two moves and the plan's two in its log.
  await page.waitForFunction((n) => Math.max(0, ...[...document.querySelectorAll('#log li[value]')]
    .map((li) => Number(li.getAttribute('value')))) >= n, logged + 4, { timeout: 10000 });
  plan.after = await ask('plan');
  plan.again = await ask('plan: 2 then deck');
  plan.dropped = await ask('plan: drop');
  plan.none = await ask('plan');
  // The same from the "Plan my next turn" panel: a choice, then the draw from the deck (the turn
  // ends there), a condition; kept, shown, dropped.
  const panel = {};
  await page.click('#plan-start');
  await page.waitForSelector('#plan-choices button');
  panel.first = await page.locator('#plan-choices button').count();
  await page.locator('#plan-choices button').first().click();
  await page.waitForFunction(() => document.querySelectorAll('#plan-steps li').length === 1);
  const deck = page.locator('#plan-choices button', { hasText: 'deck' });
  await ((await deck.count()) ? deck.first() : page.locator('#plan-choices button').first()).click();
  await page.waitForFunction(() => document.querySelectorAll('#plan-steps li').length === 2);
  panel.ends = await page.locator('#plan-builder').innerText();
  await page.check('input[value="piles_unchanged"]');
  await page.click('#plan-keep');
  await page.waitForSelector('#plan-waiting');
  panel.waiting = await page.locator('#plan-waiting').innerText();
  panel.steps = await page.locator('#plan-waiting li').count();
  panel.kept = await page.locator('#plan-status').innerText();
  await page.click('#plan-drop');
  await page.waitForSelector('#plan-start');
  panel.dropped = await page.locator('#plan-status').innerText();
  await page.waitForSelector('#next-game a', { timeout: 10000 });
  const offered = await page.locator('#next-game a').innerText();
  await page.click('#next-game a');
  await page.waitForURL(new RegExp(`/games/${otherId}$`));
  await page.waitForSelector('#turn');
  const next = { url: page.url(), turn: await page.locator('#turn').innerText(), title: await page.title() };
  console.log(JSON.stringify({ deepLink, lobby, live, plan, panel, offered, next, outside }));
} finally {
  await browser.close();
}
