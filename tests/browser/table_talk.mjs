// Two players chat at their table in two browsers: each sees the other's message arrive without
// reloading; one keeps a private note that is still there after a reload; the other reports a
// message, which a moderator mutes from the moderation page (the muted player is told until
// when); then follows the first's name from the chat to the profile, follows and blocks them
// there, and invites a followed player from the lobby.
// Usage: node table_talk.mjs <base> <name A> <name B> <game id> <moderator>. Prints one JSON line.
import { DESKTOP, PHONE, launch, logIn } from './lib.mjs';

const [base, nameA, nameB, gameId, moderatorName] = process.argv.slice(2);
const browser = await launch();
const errors = [];
/** Signed in as `name`, on the game's page (or `path`). */
async function seated(options, name, path = `/games/${gameId}`) {
  const page = await (await browser.newContext(options)).newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await logIn(page, `${base}/`, name);
  await page.waitForSelector('#variant');
  await page.goto(`${base}${path}`);
  if (path.startsWith('/games/')) await page.waitForSelector('#chat-text');
  return page;
}
/** Types and sends a message. */
async function send(page, text) {
  await page.fill('#chat-text', text);
  await page.getByRole('button', { name: 'Send' }).click();
}
try {
  const a = await seated({ viewport: DESKTOP }, nameA);
  const b = await seated(PHONE, nameB);
  await send(a, 'Good luck!');
  await b.locator('#chat li', { hasText: 'Good luck!' }).waitFor({ timeout: 10000 });
  await send(b, 'Thanks, you too');
  await a.locator('#chat li', { hasText: 'Thanks, you too' }).waitFor({ timeout: 10000 });
  const lines = (page) => page.locator('#chat li').evaluateAll((items) => items.map((li) =>
    `${li.querySelector('a.player')?.textContent}: ${li.querySelector('.chat-text')?.textContent}`));
  const seenByA = await lines(a);
  const seenByB = await lines(b);

  await a.fill('#note', 'Watch the blue pile');
  await a.getByRole('button', { name: 'Save note' }).click();
  await a.locator('#status', { hasText: 'Note saved.' }).waitFor();
  await a.reload();
  await a.waitForSelector('#chat-text');
  await a.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('note'))?.value !== '');
  const note = await a.inputValue('#note');

  // B reports A's message; the moderator mutes A from the queue; A is told until when.
  const annasLine = b.locator('#chat li', { hasText: 'Good luck!' });
  await annasLine.getByRole('button', { name: 'Report' }).click();
  await annasLine.locator('input[name="report-reason"]').fill('spam');
  await annasLine.getByRole('button', { name: 'Send the report' }).click();
  await annasLine.getByText('Thank you').waitFor();
  const mod = await seated({ viewport: DESKTOP }, moderatorName, '/moderation');
  const report = mod.locator('#reports li.report').first();
  await report.waitFor();
  const reported = await report.locator('li.reported').innerText();
  await report.locator('input').fill('spam at the table');
  await report.getByRole('button', { name: 'Mute for a day' }).click();
  await mod.locator('#audit li', { hasText: 'mute' }).waitFor();
  const audit = await mod.locator('#audit li').allInnerTexts();
  await send(a, 'am I muted?');
  await a.locator('#status', { hasText: 'muted' }).waitFor();
  const muted = await a.locator('#status').innerText();

  // From the name in the chat to the profile: follow, then block.
  await b.locator('#chat li a.player', { hasText: nameA }).first().click();
  await b.waitForURL(`**/players/${nameA}`);
  await b.locator('#follow', { hasText: 'Follow' }).click();
  await b.locator('#follow', { hasText: 'Unfollow' }).waitFor();
  await b.locator('#block', { hasText: 'Block' }).click();
  await b.locator('#block', { hasText: 'Unblock' }).waitFor();
  const status = await b.locator('#status').innerText();
  // A followed player is offered in the lobby (the block refuses the invitation: undone first).
  await b.locator('#block', { hasText: 'Unblock' }).click();
  await b.locator('#block', { hasText: 'Block' }).waitFor();
  await b.goto(`${base}/`);
  await b.locator('#friends input[value="' + nameA + '"]').check();
  await b.getByRole('button', { name: 'Create' }).click();
  await b.waitForURL(/\/games\/\d+$/);
  const invitedTo = Number(/(\d+)$/.exec(b.url())[1]);
  console.log(JSON.stringify({ seenByA, seenByB, note, reported, audit, muted, status, invitedTo, errors }));
} finally {
  await browser.close();
}
