// Two players chat at their table in two browsers: each sees the other's message arrive without
// reloading; one keeps a private note that is still there after a reload; the other follows the
// first's name from the chat to the profile and blocks them there.
// Usage: node table_talk.mjs <base> <name A> <name B> <game id>. Prints one JSON line.
import { DESKTOP, PHONE, launch } from './lib.mjs';

const [base, nameA, nameB, gameId] = process.argv.slice(2);
const browser = await launch();
const errors = [];
/** Signed in as `name`, on the game's page. */
async function seated(options, name) {
  const page = await (await browser.newContext(options)).newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}/`);
  await page.fill('#name', name);
  await page.fill('#password', 'correct horse');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForSelector('#variant');
  await page.goto(`${base}/games/${gameId}`);
  await page.waitForSelector('#chat-text');
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
  const seenByA = await a.locator('#chat li').allInnerTexts();
  const seenByB = await b.locator('#chat li').allInnerTexts();

  await a.fill('#note', 'Watch the blue pile');
  await a.getByRole('button', { name: 'Save note' }).click();
  await a.locator('#status', { hasText: 'Note saved.' }).waitFor();
  await a.reload();
  await a.waitForSelector('#chat-text');
  await a.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('note'))?.value !== '');
  const note = await a.inputValue('#note');

  // From the name in the chat to the profile, and the block there.
  await b.locator('#chat li a.player', { hasText: nameA }).first().click();
  await b.waitForURL(`**/players/${nameA}`);
  await b.locator('#block', { hasText: 'Block' }).click();
  await b.locator('#block', { hasText: 'Unblock' }).waitFor();
  const status = await b.locator('#status').innerText();
  console.log(JSON.stringify({ seenByA, seenByB, note, status, errors }));
} finally {
  await browser.close();
}
