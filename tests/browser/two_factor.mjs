// Two-factor sign-in from the settings screen: turn it on (the secret read from the page, a code
// computed here as an authenticator app would, RFC 6238), see the recovery codes, log out, log in:
// the code is asked for and signs in; then delete the account with the password and a code.
// Usage: node two_factor.mjs <base> <name> <server time, ms>. Prints one JSON line. The server's
// clock stands still in tests: codes are computed for its time, not this machine's.
import { createHmac } from 'node:crypto';
import { DESKTOP, launch, register, watchOutside } from './lib.mjs';

const [base, name, serverTime] = process.argv.slice(2);

/** RFC 4648 base32 to bytes. @param {string} text */
function base32(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of text.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The 6-digit TOTP code (SHA-1, 30 s steps) of `secret` at `ms`. */
function totp(secret, ms) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 30000)));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1000000).padStart(6, '0');
}

const browser = await launch();
const outside = [];
try {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  watchOutside(page, base, outside);
  await register(page, base, name);
  await page.goto(`${base}/settings`);
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await page.waitForSelector('#two-factor-secret');
  const qr = await page.locator('svg.qr').count();
  const secret = await page.locator('#two-factor-secret').innerText();
  // The step before the server's: the next sign-in takes the server's own step.
  await page.fill('#two-factor-code', totp(secret, Number(serverTime) - 30000));
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  await page.waitForSelector('#recovery-codes li');
  const recovery = await page.locator('#recovery-codes li').allInnerTexts();
  const state = await page.locator('#two-factor-state').innerText();

  await page.getByRole('button', { name: 'Log out' }).click();
  await page.fill('#name', name);
  await page.fill('#password', 'browser-test-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForSelector('#code', { state: 'visible' });
  const asked = await page.evaluate(() => document.activeElement?.id);
  await page.fill('#code', totp(secret, Number(serverTime)));
  await page.getByRole('button', { name: 'Log in' }).click();
  // Signed in, back on the screen it was on (the settings).
  await page.waitForSelector('#two-factor-state');
  const signedIn = await page.locator('.me').innerText();

  // Then the account is deleted from the same screen: the password, a code of the next step, the box.
  await page.fill('#delete-password', 'browser-test-password');
  await page.fill('#delete-code', totp(secret, Number(serverTime) + 30000));
  await page.check('#delete-sure');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await page.waitForSelector('#name', { state: 'visible' });
  const farewell = await page.locator('#status').innerText();
  console.log(JSON.stringify({ qr, secretLength: secret.length, recovery, state, asked, signedIn, farewell, outside }));
} finally {
  await browser.close();
}
