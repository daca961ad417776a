// @ts-check
/** The settings' section that makes the account a bot, for good: for a program its owner runs
 * through the API. Only an account that never sat at a game may; it then shows as a bot. */

import { call } from './api.js';
import { h, checkedForm, say } from './dom.js';
import { t } from './i18n.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** @param {HTMLElement} body */
export async function botAccount(body) {
  /** @type {Schemas['Me']} */
  const me = await call('GET', '/me');
  /** @type {Schemas['PlayerProfile']} */
  const profile = await call('GET', `/players/${encodeURIComponent(me.name)}`);
  const isBot = () => body.replaceChildren(h('p', { id: 'bot-status' }, [t('bot-account-is')]));
  if (profile.outside_bot) return isBot();
  /** @type {Schemas['TwoFactorStatus']} */
  const twoFactor = await call('GET', '/me/two-factor');
  const password = /** @type {HTMLInputElement} */ (h('input', { id: 'bot-password', name: 'bot-password', type: 'password', autocomplete: 'current-password', required: true, maxlength: 128 }));
  const code = /** @type {HTMLInputElement} */ (h('input', { id: 'bot-code', name: 'bot-code', autocomplete: 'one-time-code', required: true, maxlength: 32 }));
  const sure = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'bot-sure', required: true }));
  const form = checkedForm('password', [
    h('label', { for: 'bot-password' }, [t('current-password')]), password,
    ...(twoFactor.enabled ? [h('label', { for: 'bot-code' }, [t('two-factor-disable-code')]), code] : []),
    h('label', { for: 'bot-sure', class: 'check' }, [sure, ` ${t('bot-account-sure')}`]),
    h('button', { type: 'submit' }, [t('bot-account-mark')]),
  ], async () => {
    await call('POST', '/me/bot', { password: password.value, ...(twoFactor.enabled ? { code: code.value.trim() } : {}) });
    isBot();
    say(t('bot-account-is'));
  });
  body.replaceChildren(h('p', {}, [t('bot-account-intro')]), form);
}
