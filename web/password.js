// @ts-check
/** Passwords: the screen a reset link opens (`/reset-password?token=…`: choose a new password),
 * the same screen without a token (ask for a link by name or address), and the settings' section
 * that changes the password. */

import { call, signOut } from './api.js';
import { h, checkedForm, say } from './dom.js';
import { t } from './i18n.js';

/** A password field. @param {string} id @param {string} autocomplete */
function passwordField(id, autocomplete) {
  return /** @type {HTMLInputElement} */ (h('input', { id, name: id, type: 'password', autocomplete, required: true, minlength: 8, maxlength: 128 }));
}

/** A new password typed twice: the second must match (the form's own check). @param {string} id */
function newPasswordFields(id) {
  const first = passwordField(id, 'new-password');
  const again = passwordField(`${id}-again`, 'new-password');
  const check = () => again.setCustomValidity(again.value === first.value ? '' : t('password-mismatch'));
  first.addEventListener('input', check);
  again.addEventListener('input', check);
  return { first, labels: [h('label', { for: id }, [t('new-password')]), first, h('label', { for: `${id}-again` }, [t('new-password-again')]), again] };
}

/** The reset screen in `main`: with the link's token, a new password; without, a form that asks
 * for a link. Works signed out. @param {HTMLElement} main */
export function showReset(main) {
  const token = new URLSearchParams(location.search).get('token');
  const result = h('p', { id: 'reset-result', role: 'status' });
  if (token) {
    const fields = newPasswordFields('reset-password');
    const form = checkedForm('login', [...fields.labels, h('button', { type: 'submit' }, [t('reset-save')])], async () => {
      await call('POST', '/auth/password-reset/confirm', { token, new_password: fields.first.value });
      // Every session was signed out: this browser's too.
      signOut();
      form.replaceChildren();
      result.replaceChildren(t('reset-done'), ' ', h('a', { href: '/' }, [t('login')]));
    });
    main.replaceChildren(h('h1', {}, [t('reset-title')]), form, result);
    return () => {};
  }
  const who = h('input', { id: 'reset-user', name: 'user', autocomplete: 'username', required: true, maxlength: 254 });
  const form = checkedForm('login', [h('label', { for: 'reset-user' }, [t('reset-who')]), who, h('button', { type: 'submit' }, [t('reset-ask')])], async () => {
    await call('POST', '/auth/password-reset', { user: /** @type {HTMLInputElement} */ (who).value.trim() });
    result.textContent = t('reset-asked');
  });
  main.replaceChildren(h('h1', {}, [t('reset-title')]), h('p', {}, [t('reset-intro')]), form, result);
  return () => {};
}

/** The settings' section that changes the password. @param {HTMLElement} body */
export async function changePassword(body) {
  const current = passwordField('current-password', 'current-password');
  const fields = newPasswordFields('changed-password');
  const revoke = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'revoke-tokens' }));
  const form = checkedForm('password', [
    h('label', { for: 'current-password' }, [t('current-password')]), current, ...fields.labels,
    h('label', { for: 'revoke-tokens', class: 'check' }, [revoke, ` ${t('revoke-tokens')}`]),
    h('button', { type: 'submit' }, [t('change-password')]),
  ], async (f) => {
    await call('POST', '/me/password', { current_password: current.value, new_password: fields.first.value, revoke_tokens: revoke.checked });
    f.reset();
    say(t('password-changed'));
  });
  body.replaceChildren(form);
}
