// @ts-check
/** The consent screen (`/oauth/authorize?…`, where an app sends the player): who asks, what each
 * scope allows in words, where the answer goes; allow or refuse. The server checks the request
 * and makes the code; this page only shows and answers, then sends the browser where the server
 * says. A request with a wrong app name or redirect is shown as an error and goes nowhere. */

import { call } from './api.js';
import { h, failed } from './dom.js';
import { t } from './i18n.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

const FIELDS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'];

/** @param {HTMLElement} main */
export function showConsent(main) {
  const params = new URLSearchParams(location.search);
  /** @type {Record<string, string>} */
  const request = {};
  for (const f of FIELDS) {
    const v = params.get(f);
    if (v != null) request[f] = v;
  }
  const show = async () => {
    /** @type {Schemas['Review']} */
    const review = await call('GET', `/oauth/authorize?${new URLSearchParams(request)}`);
    if (review.outcome === 'refused') {
      location.assign(review.redirect_to);
      return;
    }
    const send = async (/** @type {boolean} */ approve) => {
      /** @type {Schemas['Answered']} */
      const answered = await call('POST', '/oauth/authorize', { request, approve });
      location.assign(answered.redirect_to);
    };
    main.replaceChildren(
      h('h1', {}, [t('oauth-title')]),
      h('p', { id: 'oauth-who' }, [t('oauth-asks', { app: review.client_id })]),
      h('ul', { id: 'oauth-scopes', class: 'list' }, review.scopes.map((s) => h('li', {}, [t(`oauth-scope-${s}`)]))),
      h('p', { id: 'oauth-where' }, [t('oauth-redirect', { host: review.redirect_host })]),
      h('p', {}, [t('oauth-revocable')]),
      h('div', { class: 'actions' }, [
        h('button', { type: 'button', id: 'oauth-allow', onclick: () => send(true).catch(failed) }, [t('oauth-allow')]),
        h('button', { type: 'button', id: 'oauth-refuse', onclick: () => send(false).catch(failed) }, [t('oauth-refuse')]),
      ]),
    );
  };
  main.replaceChildren(h('h1', {}, [t('oauth-title')]));
  show().catch((e) => {
    // A wrong app name or redirect: said here, and the browser goes nowhere.
    main.append(h('p', { id: 'oauth-error', role: 'alert' }, [t('oauth-invalid'), ' ', e instanceof Error ? e.message : '']));
    failed(e);
  });
  return () => {};
}
