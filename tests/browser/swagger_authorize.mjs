// Swagger UI's "Authorize" runs OAuth with PKCE against the server: signed in to Keltis, the
// player opens the API docs, authorizes the oauth2 scheme (the consent screen opens in a popup and
// is allowed there), then "Try it out" on getMe answers with the player's name and the scope.
// Usage: node swagger_authorize.mjs <base> <name>. Prints one JSON line.
import { DESKTOP, launch, logIn } from './lib.mjs';

const [base, name] = process.argv.slice(2);
const browser = await launch();
const errors = [];
try {
  const context = await browser.newContext({ viewport: DESKTOP });
  const tab = await context.newPage();
  tab.on('pageerror', (e) => errors.push(String(e)));
  await logIn(tab, `${base}/`, name);
  await tab.waitForSelector('#variant');

  await tab.goto(`${base}/docs/`);
  await tab.click('.btn.authorize');
  const oauth = tab.locator('.auth-container').filter({ hasText: 'oauth2' });
  await oauth.waitFor();
  const [popup] = await Promise.all([
    tab.waitForEvent('popup'),
    oauth.locator('button.authorize').click(),
  ]);
  await popup.waitForSelector('#oauth-allow');
  const who = await popup.locator('#oauth-who').innerText();
  await popup.click('#oauth-allow');
  // The popup goes back to Swagger UI's redirect page, which hands the code over and closes.
  await oauth.getByText('Authorized', { exact: true }).waitFor();
  await tab.click('.modal-ux .close-modal');

  const operation = tab.locator('#operations-accounts-getMe');
  await operation.locator('.opblock-summary').first().click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  await operation.getByRole('button', { name: 'Execute' }).click();
  const body = operation.locator('.live-responses-table .response-col_description pre.microlight').first();
  await body.waitFor();
  const me = JSON.parse(await body.innerText());
  console.log(JSON.stringify({ who, me, errors }));
} finally {
  await browser.close();
}
