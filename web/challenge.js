// @ts-check
/** Challenge links: on the page of a game waiting for players, a link to share that seats
 * whoever opens it first; and the page such a link opens (`/join/{token}`), which takes the seat
 * and shows the game. */

import { call } from './api.js';
import { h, failed, go, say } from './dom.js';
import { t } from './i18n.js';

/** The "share a link" control of game `id`. @param {number} id */
export function shareLink(id) {
  const field = /** @type {HTMLInputElement} */ (h('input', { id: 'challenge-link', readonly: true, hidden: true, 'aria-label': t('challenge-link') }));
  const show = async () => {
    try {
      /** @type {import('./types/api').components['schemas']['ChallengeLink']} */
      const made = await call('GET', `/games/${id}/challenge-link`);
      field.value = made.link;
      field.hidden = false;
      field.select();
      await navigator.clipboard?.writeText(made.link).then(() => say(t('challenge-copied')), () => {});
    } catch (e) {
      failed(e);
    }
  };
  return h('p', { class: 'challenge' }, [
    h('button', { type: 'button', id: 'share-link', onclick: show }, [t('challenge-share')]), ' ', field,
  ]);
}

/** The page of a challenge link: take the seat, then show the game. @param {HTMLElement} main @param {string} token */
export function showJoin(main, token) {
  main.replaceChildren(h('p', { role: 'status' }, [t('challenge-joining')]));
  call('POST', `/challenges/${encodeURIComponent(token)}`, {}).then(
    (/** @type {{id: number}} */ g) => go(`/games/${g.id}`),
    (e) => {
      main.replaceChildren(h('p', {}, [h('a', { href: '/' }, [t('lobby')])]));
      failed(e);
    },
  );
  return () => {};
}
