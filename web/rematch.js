// @ts-check
/** The rematch at a finished game's page: offer the same table again, accept or decline the
 * offer of another player (who may have made it while this one was away), and open the new game
 * once everyone has accepted. */

import { ApiError, call } from './api.js';
import { h, failed, go } from './dom.js';
import { t } from './i18n.js';
import { onChange } from './waiting.js';

/** @typedef {import('./types/api').components['schemas']['Rematch']} Rematch */

/** The rematch panel of game `id` for player `me`, kept live; how to stop keeping it.
 * @param {number} id @param {string} me @returns {{panel: HTMLElement, stop: () => void}} */
export function rematchPanel(id, me) {
  const panel = h('section', { class: 'rematch', id: 'rematch', 'aria-live': 'polite' });
  const path = `/games/${id}/rematch`;
  let wasOffered = false;
  /** @param {'POST' | 'DELETE'} method */
  const answer = (method) => call(method, path, method === 'POST' ? {} : undefined).then(draw, failed);
  const button = (/** @type {string} */ label, /** @type {string} */ elementId, /** @type {() => void} */ onclick) =>
    h('button', { type: 'button', id: elementId, onclick }, [label]);
  /** @param {Rematch | null} r */
  const draw = (r) => {
    if (r?.state === 'started' && r.new_game_id != null) {
      // Everyone accepted while this page showed the offer: on to the new game.
      if (wasOffered) {
        go(`/games/${r.new_game_id}`);
        return;
      }
      panel.replaceChildren(h('p', {}, [h('a', { href: `/games/${r.new_game_id}` }, [t('rematch-started', { id: r.new_game_id })])]));
      return;
    }
    if (r?.state === 'offered') {
      wasOffered = true;
      const mine = r.accepted.includes(me);
      panel.replaceChildren(
        h('p', { id: 'rematch-status' }, [mine
          ? t('rematch-waiting', { names: r.waiting_for.join(', ') })
          : t('rematch-from', { by: r.offered_by })]),
        ...(mine
          ? [button(t('rematch-withdraw'), 'rematch-decline', () => answer('DELETE'))]
          : [button(t('rematch-accept'), 'rematch-accept', () => answer('POST')), ' ',
            button(t('rematch-decline'), 'rematch-decline', () => answer('DELETE'))]),
      );
      return;
    }
    const said = r?.state === 'declined' ? t('rematch-declined', { by: r.declined_by ?? '' })
      : r?.state === 'lapsed' ? t('rematch-lapsed') : '';
    panel.replaceChildren(
      ...(said ? [h('p', { id: 'rematch-status' }, [said])] : []),
      button(t('rematch-offer'), 'rematch-offer', () => answer('POST')),
    );
  };
  const load = () => call('GET', path).then(draw, (e) => {
    if (e instanceof ApiError && e.status === 404) draw(null);
    else failed(e);
  });
  load();
  // An offer or the new game's start arrives on the user's stream.
  const stop = onChange(() => { load(); });
  return { panel, stop };
}
