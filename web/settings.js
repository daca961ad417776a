// @ts-check
/** The settings screen (`/settings`): the email address and its confirmation, which notices come
 * by email and by push, the digest, the language of notices, vacation, the password, two-factor
 * sign-in, signed-in devices, API tokens and push devices, taking one's data and deleting the
 * account. Each section loads and saves on its own. */

import { call, signOut } from './api.js';
import { h, failed, duration, say, go } from './dom.js';
import { t, language } from './i18n.js';
import { pushButton } from './notify.js';
import { changePassword } from './password.js';
import { botAccount } from './bot_account.js';
import { deleteAccount } from './delete_account.js';
import { twoFactor } from './two_factor.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

const KINDS = /** @type {const} */ (['your_turn', 'deadline_reminder', 'invitation', 'game_started', 'game_over']);
const DIGESTS = [null, 6, 12, 24, 48];
/** What a token may be allowed (read and play are ticked by default). */
const SCOPES = ['read', 'play', 'email', 'webhooks', 'push', 'organize'];

const CONFIRM = 'keltis.confirm';

/** Whether a move waits for a second tap (this device's choice; on by default on touch screens,
 * where a slip of the finger is easy, off with a mouse). */
export function confirmMoves() {
  const kept = localStorage.getItem(CONFIRM);
  if (kept != null) return kept === 'on';
  return window.matchMedia('(pointer: coarse)').matches;
}

/** This device's way of playing. @param {HTMLElement} body */
async function thisDevice(body) {
  const box = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'confirm-moves', checked: confirmMoves() }));
  box.addEventListener('change', () => {
    localStorage.setItem(CONFIRM, box.checked ? 'on' : 'off');
    say(t('saved'));
  });
  body.replaceChildren(h('label', { for: 'confirm-moves' }, [box, ` ${t('confirm-moves')}`]));
}

/** A time in the reader's language. @param {number} ms */
function when(ms) {
  return new Date(ms).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A section with its heading, filled by `fill` (again after each change). @param {string} id @param {string} title
 * @param {(body: HTMLElement, refill: () => void) => Promise<void>} fill */
function section(id, title, fill) {
  const body = h('div');
  const refill = () => { fill(body, refill).catch(failed); };
  refill();
  return h('section', { id, 'aria-labelledby': `${id}-title` }, [h('h2', { id: `${id}-title` }, [title]), body]);
}

/** A button that runs `action`, then says `done` and refills. @param {string} label @param {() => Promise<unknown>} action
 * @param {() => void} refill @param {Record<string, any>} [attrs] */
function button(label, action, refill, attrs = {}) {
  return h('button', { type: 'button', ...attrs, onclick: () => action().then(() => { say(t('saved')); refill(); }, failed) }, [label]);
}

/** @param {HTMLElement} body @param {() => void} refill */
async function email(body, refill) {
  /** @type {Schemas['MailSettings']} */
  const settings = await call('GET', '/me/email');
  const address = /** @type {HTMLInputElement} */ (h('input', { id: 'email-address', type: 'email', autocomplete: 'email', maxlength: 254, value: settings.email ?? '' }));
  const state = !settings.email ? t('email-none')
    : settings.bounced ? t('email-bounced')
    : settings.verified ? t('email-verified') : t('email-unverified');
  body.replaceChildren(
    h('form', { onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      call('PUT', '/me/email', { email: address.value.trim() || null }).then(() => { say(t('saved')); refill(); }, failed);
    } }, [
      h('label', { for: 'email-address' }, [t('email-address')]), address,
      h('button', { type: 'submit' }, [t('save')]),
    ]),
    h('p', { id: 'email-state' }, [state]),
  );
}

/** @param {HTMLElement} body @param {() => void} refill */
async function notices(body, refill) {
  /** @type {Schemas['MailSettings']} */
  const settings = await call('GET', '/me/email');
  const p = settings.preferences;
  /** @param {string} id @param {boolean} checked @param {string} label */
  const box = (id, checked, label) => h('input', { type: 'checkbox', id, checked, 'aria-label': label });
  const rows = KINDS.map((k) => h('tr', {}, [
    h('th', { scope: 'row' }, [t(`kind-${k}`)]),
    h('td', {}, [box(`email-${k}`, p[k], `${t(`kind-${k}`)}: ${t('channel-email')}`)]),
    h('td', {}, [box(`push-${k}`, p.push?.[k] ?? true, `${t(`kind-${k}`)}: ${t('channel-push')}`)]),
  ]));
  const digest = /** @type {HTMLSelectElement} */ (h('select', { id: 'digest' }, DIGESTS.map((hours) =>
    h('option', { value: String(hours ?? ''), selected: (p.digest_hours ?? null) === hours },
      [hours === null ? t('digest-off') : t('digest-every', { hours })]))));
  const lang = /** @type {HTMLSelectElement} */ (h('select', { id: 'notice-language' }, [['en', 'English'], ['fr', 'Français'], ['de', 'Deutsch']]
    .map(([code, name]) => h('option', { value: code, selected: p.language === code }, [name]))));
  const checked = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (body.querySelector(`#${id}`)).checked;
  const save = () => {
    /** @type {any} */
    const next = { language: lang.value, digest_hours: digest.value ? Number(digest.value) : null, push: {},
      // Where the server offers no moves by reply, the setting is not shown, and left as it is.
      moves_by_reply: settings.moves_by_reply_offered ? checked('moves-by-reply') : undefined };
    for (const k of KINDS) {
      next[k] = checked(`email-${k}`);
      next.push[k] = checked(`push-${k}`);
    }
    return call('PUT', '/me/email/preferences', next);
  };
  body.replaceChildren(
    h('table', { class: 'notices' }, [
      h('thead', {}, [h('tr', {}, [h('th', { scope: 'col' }, [t('notice')]), h('th', { scope: 'col' }, [t('channel-email')]), h('th', { scope: 'col' }, [t('channel-push')])])]),
      h('tbody', {}, rows),
    ]),
    h('p', {}, [h('label', { for: 'digest' }, [t('digest')]), ' ', digest]),
    ...(settings.moves_by_reply_offered ? [h('p', {}, [h('input', { type: 'checkbox', id: 'moves-by-reply', checked: p.moves_by_reply ?? false }), ' ',
      h('label', { for: 'moves-by-reply' }, [t('moves-by-reply')])])] : []),
    h('p', {}, [h('label', { for: 'notice-language' }, [t('notice-language')]), ' ', lang]),
    button(t('save'), save, refill, { id: 'save-notices' }),
  );
}

/** @param {HTMLElement} body @param {() => void} refill */
async function vacation(body, refill) {
  /** @type {Schemas['VacationStatus']} */
  const v = await call('GET', '/me/vacation');
  body.replaceChildren(
    h('p', {}, [t('vacation-left', { left: duration(v.remaining_ms), days: v.allowance_days })]),
    v.current
      ? h('p', {}, [t('vacation-until', { when: when(v.current.ends_at) }), ' ', button(t('vacation-stop'), () => call('DELETE', '/me/vacation'), refill)])
      : button(t('vacation-start'), () => call('POST', '/me/vacation'), refill, { disabled: v.remaining_ms <= 0 }),
  );
}

/** @param {HTMLElement} body @param {() => void} refill */
async function devices(body, refill) {
  /** @type {Schemas['SessionInfo'][]} */
  const sessions = await call('GET', '/me/sessions');
  body.replaceChildren(
    h('ul', { class: 'list' }, sessions.map((s) => h('li', {}, [
      s.user_agent ?? t('device-unknown'), ' · ', t('last-used', { when: when(s.last_used_at) }),
      s.current ? ` · ${t('device-this')}` : ' ',
      s.current ? '' : button(t('sign-out'), () => call('DELETE', `/me/sessions/${s.id}`), refill),
    ]))),
    h('button', { type: 'button', onclick: () => call('DELETE', '/me/sessions').then(() => { signOut(); go('/'); }, failed) }, [t('sign-out-all')]),
  );
}

/** @param {HTMLElement} body @param {() => void} refill */
async function tokens(body, refill) {
  /** @type {Schemas['ApiTokenInfo'][]} */
  const list = await call('GET', '/me/tokens');
  const name = /** @type {HTMLInputElement} */ (h('input', { id: 'token-name', required: true, maxlength: 64 }));
  const scope = (/** @type {string} */ s) => h('label', {}, [h('input', { type: 'checkbox', id: `scope-${s}`, checked: s === 'read' || s === 'play' }), ` ${t(`scope-${s}`)}`]);
  const created = h('p', { id: 'token-new' });
  const create = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const scopes = SCOPES.filter((s) => /** @type {HTMLInputElement} */ (body.querySelector(`#scope-${s}`)).checked);
    try {
      /** @type {Schemas['NewApiToken']} */
      const made = await call('POST', '/me/tokens', { name: name.value, scopes });
      await tokens(body, refill);
      body.querySelector('#token-new')?.replaceChildren(t('token-new'), ' ', h('code', {}, [made.token]));
    } catch (err) {
      failed(err);
    }
  };
  body.replaceChildren(
    h('ul', { class: 'list' }, list.map((k) => h('li', {}, [
      h('strong', {}, [k.name]), k.client_id ? ` · ${t('token-app', { host: k.redirect_host ?? '' })}` : '',
      ` · ${k.scopes.map((s) => t(`scope-${s}`)).join(', ')}`,
      k.last_used_at ? ` · ${t('last-used', { when: when(k.last_used_at) })}` : '',
      ' ', k.revoked_at ? t('revoked') : button(t('revoke'), () => call('DELETE', `/me/tokens/${k.id}`), refill),
    ]))),
    h('form', { onsubmit: create }, [
      h('label', { for: 'token-name' }, [t('token-name')]), name, ...SCOPES.map(scope),
      h('button', { type: 'submit' }, [t('token-create')]),
    ]),
    created,
  );
}

/** @param {HTMLElement} body @param {() => void} refill */
async function pushDevices(body, refill) {
  /** @type {Schemas['PushDevice'][]} */
  const list = await call('GET', '/me/push-subscriptions');
  body.replaceChildren(
    list.length ? h('ul', { class: 'list' }, list.map((d) => h('li', {}, [
      d.user_agent ?? t('device-unknown'),
      d.last_success_at ? ` · ${t('last-push', { when: when(d.last_success_at) })}` : '', ' ',
      button(t('push-test'), () => call('POST', `/me/push-subscriptions/${d.id}/test`), refill),
      button(t('remove'), () => call('DELETE', `/me/push-subscriptions/${d.id}`), refill),
    ]))) : h('p', {}, [t('nothing')]),
    pushButton(),
  );
}

/** Everything the server holds about the player, downloaded as one JSON file.
 * @param {HTMLElement} body */
async function yourData(body) {
  const download = async () => {
    const data = await call('GET', '/me/export');
    const link = h('a', {
      href: URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })),
      download: `keltis-${data.profile.name}.json`,
    });
    link.click();
    URL.revokeObjectURL(/** @type {HTMLAnchorElement} */ (link).href);
    say(t('export-done'));
  };
  body.replaceChildren(
    h('p', {}, [t('export-intro')]),
    h('button', { type: 'button', id: 'export', onclick: () => download().catch(failed) }, [t('export')]),
  );
}

/** Show the settings screen in `main`. @param {HTMLElement} main */
export function showSettings(main) {
  main.replaceChildren(
    h('h1', {}, [t('settings')]),
    section('email', t('email'), email),
    section('notices', t('notices'), notices),
    section('vacation', t('vacation'), vacation),
    section('password', t('password-title'), changePassword),
    section('two-factor', t('two-factor-title'), twoFactor),
    section('devices', t('devices'), devices),
    section('tokens', t('tokens'), tokens),
    section('push-devices', t('push-devices'), pushDevices),
    section('this-device', t('this-device'), thisDevice),
    section('your-data', t('export-title'), yourData),
    section('bot-account', t('bot-account-title'), botAccount),
    section('delete', t('delete-title'), deleteAccount),
  );
  return () => {};
}
