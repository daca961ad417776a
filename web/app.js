// @ts-check
/** The browser client: log in, then screens by the address's hash: `#/` the lobby,
 * `#/game/<id>` a game, `#/record/<id>` a finished game's record. Every action is one of the
 * legal decisions the server offers; the game page follows the game live. */

import { session, signIn, signOut } from './api.js';
import { h, failed, say } from './dom.js';
import { initLanguage, setLanguage, t } from './i18n.js';
import { showGame } from './game.js';
import { showLobby } from './lobby.js';
import { showReplay } from './replay.js';

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const nav = /** @type {HTMLElement} */ (document.getElementById('nav'));

/** What the current screen holds open (a stream, a timer). */
let leave = () => {};

function showNav() {
  const s = session();
  nav.replaceChildren(
    ...(s
      ? [
          h('a', { href: '#/' }, [t('lobby')]),
          h('span', { class: 'me' }, [s.name]),
          h('button', { type: 'button', onclick: () => { signOut(); route(); } }, [t('logout')]),
        ]
      : []),
  );
}

function showLogin() {
  const name = h('input', { id: 'name', name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 32 });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true, minlength: 8 });
  /** @param {boolean} create */
  const go = async (create) => {
    try {
      await signIn(/** @type {HTMLInputElement} */ (name).value, /** @type {HTMLInputElement} */ (password).value, create);
      say('');
      route();
    } catch (e) {
      failed(e);
    }
  };
  const form = h('form', { class: 'login', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); go(false); } }, [
    h('label', { for: 'name' }, [t('name')]), name,
    h('label', { for: 'password' }, [t('password')]), password,
    h('div', { class: 'actions' }, [
      h('button', { type: 'submit' }, [t('login')]),
      h('button', { type: 'button', onclick: () => go(true) }, [t('register')]),
    ]),
  ]);
  main.replaceChildren(h('h1', {}, ['Keltis']), form);
}

function route() {
  leave();
  leave = () => {};
  showNav();
  if (!session()) return showLogin();
  const game = /^#\/game\/(\d+)$/.exec(location.hash);
  if (game) {
    leave = showGame(main, Number(game[1]));
    return;
  }
  const record = /^#\/record\/(\d+)$/.exec(location.hash);
  if (record) {
    leave = showReplay(main, Number(record[1]));
    return;
  }
  showLobby(main);
}

const lang = /** @type {HTMLSelectElement} */ (document.getElementById('lang'));
lang.value = initLanguage();
lang.addEventListener('change', () => {
  setLanguage(lang.value);
  route();
});
window.addEventListener('hashchange', route);
route();
