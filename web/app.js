// @ts-check
/** The browser client: log in, then screens by the address's path: `/` the lobby, `/games/<id>`
 * a game (`/games/<id>/text` as text), `/events` the events and `/events/<id>` one, `/ladders/<variant>` a ladder, `/records/<id>` a finished game's record, `/settings` the player's settings, `/players/<name>` a
 * profile, `/leaderboards/<variant>` a leaderboard, `/reset-password` a forgotten password's
 * reset (signed out too), `/oauth/authorize` an app's request for access, `/help/<variant>`
 * how to play (the server
 * answers each path with this page, so a link from an email opens its screen, after logging in
 * if needed). Every action is one of
 * the legal decisions the server offers; the game page follows the game live, and the tab's
 * title counts the games waiting for you. */

import { ApiError, session, signIn, signOut } from './api.js';
import { h, failed, go, isScreen, say } from './dom.js';
import { initLanguage, setLanguage, t } from './i18n.js';
import { showGame } from './game.js';
import { showTextTable } from './text_table.js';
import { showLobby } from './lobby.js';
import { showReplay } from './replay.js';
import { showSettings } from './settings.js';
import { showModeration } from './moderation.js';
import { showConsent } from './oauth.js';
import { showLeaderboard, showProfile } from './players.js';
import { showHelp } from './help.js';
import { showJoin } from './challenge.js';
import { showEvent, showEvents } from './events.js';
import { showLadder } from './ladder.js';
import { showReset } from './password.js';
import { follow, stop } from './waiting.js';
import { registerWorker } from './notify.js';

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const nav = /** @type {HTMLElement} */ (document.getElementById('nav'));

/** What the current screen holds open (a stream, a timer). */
let leave = () => {};

function showNav() {
  const s = session();
  nav.replaceChildren(
    ...(s
      ? [
          h('a', { href: '/' }, [t('lobby')]),
          h('a', { href: '/events' }, [t('events')]),
          h('a', { href: '/leaderboards/keltis' }, [t('leaderboards')]),
          h('a', { href: '/help/keltis' }, [t('help')]),
          h('a', { href: '/settings' }, [t('settings')]),
          h('span', { class: 'me' }, [s.name]),
          h('button', { type: 'button', onclick: () => { signOut(); stop(); route(); } }, [t('logout')]),
        ]
      : []),
  );
}

function showLogin() {
  const name = h('input', { id: 'name', name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 32 });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true, minlength: 8 });
  // Asked for once the server says the account signs in with a second factor.
  const code = /** @type {HTMLInputElement} */ (h('input', { id: 'code', name: 'code', autocomplete: 'one-time-code', inputmode: 'numeric', maxlength: 32 }));
  const codeField = h('div', { class: 'code-field', hidden: true }, [h('label', { for: 'code' }, [t('login-code')]), code]);
  /** @param {boolean} create */
  const go = async (create) => {
    // The form's own checks (lengths) before anything is sent.
    if (!/** @type {HTMLFormElement} */ (form).reportValidity()) return;
    try {
      await signIn(/** @type {HTMLInputElement} */ (name).value, /** @type {HTMLInputElement} */ (password).value, create, code.value.trim());
      say('');
      route();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'two_factor_required') {
        codeField.hidden = false;
        code.required = true;
        code.focus();
        say(t('login-code'));
        return;
      }
      failed(e);
    }
  };
  const form = h('form', { class: 'login', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); go(false); } }, [
    h('label', { for: 'name' }, [t('name')]), name,
    h('label', { for: 'password' }, [t('password')]), password,
    codeField,
    h('div', { class: 'actions' }, [
      h('button', { type: 'submit' }, [t('login')]),
      h('button', { type: 'button', onclick: () => go(true) }, [t('register')]),
    ]),
    h('p', { class: 'forgot' }, [h('a', { href: '/reset-password' }, [t('forgot-password')])]),
  ]);
  main.replaceChildren(h('h1', {}, ['Keltis']), form);
}

/** Counts the screens shown, so that a screen that finishes loading late knows it was left. */
let screens = 0;

function route() {
  screens += 1;
  leave();
  leave = () => {};
  showNav();
  // A reset link works signed out (and signs every session out).
  if (location.pathname === '/reset-password') {
    leave = showReset(main);
    return;
  }
  if (!session()) return showLogin();
  follow();
  const join = /^\/join\/(\d+-[0-9a-f]{64})$/.exec(location.pathname);
  if (join) {
    leave = showJoin(main, join[1]);
    return;
  }
  const text = /^\/games\/(\d+)\/text$/.exec(location.pathname);
  if (text) {
    leave = showTextTable(main, Number(text[1]));
    return;
  }
  const game = /^\/games\/(\d+)$/.exec(location.pathname);
  if (game) {
    leave = showGame(main, Number(game[1]));
    return;
  }
  const tournament = /^\/events\/(\d+)$/.exec(location.pathname);
  if (tournament) {
    leave = showEvent(main, Number(tournament[1]));
    return;
  }
  const ladder = /^\/ladders\/(keltis|neue-wege|keltis-card)$/.exec(location.pathname);
  if (ladder) {
    leave = showLadder(main, ladder[1]);
    return;
  }
  if (location.pathname === '/events') {
    leave = showEvents(main);
    return;
  }
  const player = /^\/players\/([^/]+)$/.exec(location.pathname);
  if (player) {
    leave = showProfile(main, decodeURIComponent(player[1]));
    return;
  }
  const help = /^\/help\/(keltis|neue-wege|keltis-card)$/.exec(location.pathname);
  if (help) {
    leave = showHelp(main, help[1]);
    return;
  }
  const board = /^\/leaderboards\/(keltis|neue-wege|keltis-card)$/.exec(location.pathname);
  if (board) {
    leave = showLeaderboard(main, board[1]);
    return;
  }
  if (location.pathname === '/settings') {
    leave = showSettings(main);
    return;
  }
  if (location.pathname === '/moderation') {
    leave = showModeration(main);
    return;
  }
  if (location.pathname === '/oauth/authorize') {
    leave = showConsent(main);
    return;
  }
  const record = /^\/records\/(\d+)$/.exec(location.pathname);
  if (record) {
    leave = showReplay(main, Number(record[1]));
    return;
  }
  const shown = ++screens;
  showLobby(main).then((stopLobby) => {
    // The lobby may already have been left for another screen.
    if (shown === screens) leave = stopLobby;
    else stopLobby();
  });
}

const lang = /** @type {HTMLSelectElement} */ (document.getElementById('lang'));
// The words come from the server before the first screen is drawn.
lang.value = await initLanguage();
lang.addEventListener('change', () => {
  setLanguage(lang.value).then(route, failed);
});
registerWorker();

// Links to the client's screens change the screen, not the page.
document.addEventListener('click', (e) => {
  const a = /** @type {Element} */ (e.target).closest?.('a');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(/** @type {HTMLAnchorElement} */ (a).href);
  if (url.origin !== location.origin || !isScreen(url.pathname)) return;
  e.preventDefault();
  go(url.pathname);
});
window.addEventListener('popstate', route);
window.addEventListener('keltis:navigate', route);
// Addresses of earlier versions (`#/game/<id>`) still open their screen.
const old = /^#\/(game|record)\/(\d+)$/.exec(location.hash);
if (old) history.replaceState(null, '', `/${old[1]}s/${old[2]}`);
route();
