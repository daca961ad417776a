// The settings screen: from the header's link, set an address (it waits for confirmation), turn
// "game over" emails and "your turn" pushes off, choose a daily digest and French notices, and
// see them kept after a reload; create an API token (shown once) and revoke it; start and end a
// vacation; see this device among the signed-in ones.
// Usage: node settings.mjs <base> <name>. Prints one JSON line.
import { DESKTOP, launch, register, watchOutside } from './lib.mjs';

const [base, name] = process.argv.slice(2);
const browser = await launch();
const outside = [];
try {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  watchOutside(page, base, outside);
  await register(page, base, name);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.waitForURL(/\/settings$/);
  await page.waitForSelector('#email-address');

  await page.fill('#email-address', `${name}@example.org`);
  await page.locator('#email').getByRole('button', { name: 'Save' }).click();
  await page.waitForFunction(() => document.querySelector('#email-state')?.textContent?.startsWith('Not confirmed'));
  const emailState = await page.locator('#email-state').innerText();

  await page.waitForSelector('#email-game_over');
  await page.uncheck('#email-game_over');
  await page.uncheck('#push-your_turn');
  await page.selectOption('#digest', '24');
  await page.selectOption('#notice-language', 'fr');
  await page.click('#save-notices');
  await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Saved.');

  await page.fill('#token-name', 'my bot');
  await page.uncheck('#scope-play');
  await page.getByRole('button', { name: 'Create a token' }).click();
  await page.waitForSelector('#token-new code');
  const token = await page.locator('#token-new code').innerText();
  const tokenItem = await page.locator('#tokens li').first().innerText();
  await page.locator('#tokens').getByRole('button', { name: 'Revoke' }).click();
  await page.waitForFunction(() => document.querySelector('#tokens li')?.textContent?.includes('revoked'));

  await page.getByRole('button', { name: 'Start a vacation' }).click();
  await page.waitForSelector('text=On vacation until');
  const onVacation = await page.locator('#vacation').innerText();
  await page.getByRole('button', { name: 'End the vacation' }).click();
  await page.waitForSelector('text=Start a vacation');

  const devices = await page.locator('#devices li').allInnerTexts();

  await page.reload();
  await page.waitForSelector('#email-game_over');
  const kept = await page.evaluate(() => ({
    address: /** @type {HTMLInputElement} */ (document.querySelector('#email-address'))?.value,
    emailGameOver: /** @type {HTMLInputElement} */ (document.querySelector('#email-game_over')).checked,
    emailYourTurn: /** @type {HTMLInputElement} */ (document.querySelector('#email-your_turn')).checked,
    pushYourTurn: /** @type {HTMLInputElement} */ (document.querySelector('#push-your_turn')).checked,
    digest: /** @type {HTMLSelectElement} */ (document.querySelector('#digest')).value,
    language: /** @type {HTMLSelectElement} */ (document.querySelector('#notice-language')).value,
  }));
  console.log(JSON.stringify({ emailState, token, tokenItem, onVacation, devices, kept, outside }));
} finally {
  await browser.close();
}
