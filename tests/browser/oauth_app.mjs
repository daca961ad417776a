// A web app on another origin (served here, on its own port) gets a token through OAuth with PKCE
// and plays a move with it: the player, signed in to Keltis, clicks "Connect" in the app, sees
// the consent screen (who asks, what for, where it goes), allows; the app checks its state,
// exchanges the code with its verifier (a cross-origin form POST) and plays its first legal
// decision through the API (cross-origin, with preflights).
// Usage: node oauth_app.mjs <base> <name> <game id>. Prints one JSON line.
import http from 'node:http';
import { DESKTOP, launch, logIn } from './lib.mjs';

const [base, name, gameId] = process.argv.slice(2);

const script = `
const base = ${JSON.stringify(base)};
const game = ${Number(gameId)};
const redirect = location.origin + '/callback';
const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
  .replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const show = (v) => { document.getElementById('result').textContent = JSON.stringify(v); };
if (location.pathname === '/callback') {
  const q = new URLSearchParams(location.search);
  if (q.get('state') !== sessionStorage.getItem('state')) {
    show({ error: 'state mismatch' });
  } else {
    const answer = await fetch(base + '/oauth/token', { method: 'POST', body: new URLSearchParams({
      grant_type: 'authorization_code', code: q.get('code'), redirect_uri: redirect,
      client_id: 'Table Helper', code_verifier: sessionStorage.getItem('verifier') }) });
    const token = await answer.json();
    const auth = { Authorization: 'Bearer ' + token.access_token };
    const view = await (await fetch(base + '/api/v1/games/' + game, { headers: auth })).json();
    const moved = await fetch(base + '/api/v1/games/' + game + '/decisions', { method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': 'app-move-1' },
      body: JSON.stringify({ expected_version: view.version, decision: view.state.legal_decisions[0] }) });
    const after = await moved.json();
    show({ scope: token.scope, status: moved.status, before: view.version, after: after.version });
  }
} else {
  document.getElementById('connect').onclick = async () => {
    const verifier = b64(crypto.getRandomValues(new Uint8Array(32)));
    const challenge = b64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
    const state = b64(crypto.getRandomValues(new Uint8Array(12)));
    sessionStorage.setItem('verifier', verifier);
    sessionStorage.setItem('state', state);
    location.assign(base + '/oauth/authorize?' + new URLSearchParams({ response_type: 'code',
      client_id: 'Table Helper', redirect_uri: redirect, scope: 'read play', state,
      code_challenge: challenge, code_challenge_method: 'S256' }));
  };
}`;
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Table Helper</title></head>
<body><button id="connect">Connect to Keltis</button><pre id="result"></pre>
<script type="module">${script}</script></body></html>`;

const app = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(page);
});
await new Promise((ok) => app.listen(0, '127.0.0.1', ok));
const origin = `http://127.0.0.1:${app.address().port}`;

const browser = await launch();
const errors = [];
try {
  const tab = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  tab.on('pageerror', (e) => errors.push(String(e)));
  // Signed in to Keltis first, as a player would be.
  await logIn(tab, `${base}/`, name);
  await tab.waitForSelector('#variant');

  await tab.goto(`${origin}/`);
  await tab.click('#connect');
  await tab.waitForSelector('#oauth-allow');
  const who = await tab.locator('#oauth-who').innerText();
  const scopes = await tab.locator('#oauth-scopes li').allInnerTexts();
  const where = await tab.locator('#oauth-where').innerText();
  await tab.click('#oauth-allow');
  await tab.waitForURL(`${origin}/callback**`);
  await tab.waitForFunction(() => document.getElementById('result')?.textContent !== '');
  const result = JSON.parse(await tab.locator('#result').innerText());
  console.log(JSON.stringify({ who, scopes, where, result, origin, errors }));
} finally {
  await browser.close();
  app.close();
}
