// @ts-check
/** The settings' section that deletes the account: what happens, the password (and a code when
 * two-factor sign-in is on), a box to tick, then signed out for good. */

import { call, signOut } from './api.js';
import { h, checkedForm, go, say } from './dom.js';
import { t } from './i18n.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** @param {HTMLElement} body */
export async function deleteAccount(body) {
  /** @type {Schemas['TwoFactorStatus']} */
  const twoFactor = await call('GET', '/me/two-factor');
  const password = /** @type {HTMLInputElement} */ (h('input', { id: 'delete-password', name: 'delete-password', type: 'password', autocomplete: 'current-password', required: true, maxlength: 128 }));
  const code = /** @type {HTMLInputElement} */ (h('input', { id: 'delete-code', name: 'delete-code', autocomplete: 'one-time-code', required: true, maxlength: 32 }));
  const sure = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'delete-sure', required: true }));
  const form = checkedForm('password', [
    h('label', { for: 'delete-password' }, [t('current-password')]), password,
    ...(twoFactor.enabled ? [h('label', { for: 'delete-code' }, [t('two-factor-disable-code')]), code] : []),
    h('label', { for: 'delete-sure', class: 'check' }, [sure, ` ${t('delete-sure')}`]),
    h('button', { type: 'submit', class: 'danger' }, [t('delete-account')]),
  ], async () => {
    await call('POST', '/me/delete', { password: password.value, ...(twoFactor.enabled ? { code: code.value.trim() } : {}) });
    signOut();
    go('/');
    say(t('account-deleted'));
  });
  body.replaceChildren(h('p', {}, [t('delete-intro')]), form);
}
