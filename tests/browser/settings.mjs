// The settings screen: from the header's link, set an address (it waits for confirmation), turn
// "game over" emails and "your turn" pushes off, choose a daily digest and French notices, and
// see them kept after a reload; create an API token (shown once) and revoke it; start and end a
// vacation; see this device among the signed-in ones; change the password; ask for a reset link
// from the login form.
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
  // This server has no reply address: "Play by replying" is not offered.
  if (await page.locator('#moves-by-reply').count() !== 0) throw new Error('moves by reply offered without a reply address');
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
  // The account's data, downloaded as a file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  const exported = JSON.parse(await (await import('node:fs/promises')).readFile(await download.path(), 'utf8'));
  const exportedFile = download.suggestedFilename();

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
  // The password: changed in the settings (the repeat must match), then a reset asked for from
  // the login form's link, signed out.
  await page.fill('#current-password', 'browser-test-password');
  await page.fill('#changed-password', 'browser-new-password');
  await page.fill('#changed-password-again', 'browser-other-password');
  await page.getByRole('button', { name: 'Change the password' }).click();
  const mismatch = await page.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#changed-password-again')).validationMessage);
  await page.fill('#changed-password-again', 'browser-new-password');
  await page.getByRole('button', { name: 'Change the password' }).click();
  await page.waitForFunction(() => document.querySelector('#status')?.textContent?.startsWith('Password changed'));
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.waitForURL(/\/reset-password$/);
  await page.fill('#reset-user', name);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await page.waitForFunction(() => document.querySelector('#reset-result')?.textContent);
  const resetAsked = await page.locator('#reset-result').innerText();
  console.log(JSON.stringify({ emailState, token, tokenItem, onVacation, devices, kept, mismatch, resetAsked, exportedFile, exportedName: exported.profile.name, exportedTokens: exported.api_tokens.length, outside }));
} finally {
  await browser.close();
}
