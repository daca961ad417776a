// @ts-check
/** The settings' section for two-factor sign-in: turn it on (the QR code and the secret in text,
 * a first code confirms, the recovery codes shown once), see how many recovery codes are left,
 * turn it off with a code. */

import { call } from './api.js';
import { h, checkedForm, failed, say } from './dom.js';
import { t } from './i18n.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** A code field. @param {string} id */
function codeInput(id) {
  return /** @type {HTMLInputElement} */ (h('input', { id, name: id, autocomplete: 'one-time-code', required: true, maxlength: 32 }));
}

/** The server's QR code (an SVG document) as an element of the page. @param {string} svg */
function qrCode(svg) {
  const image = document.importNode(new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement, true);
  image.setAttribute('role', 'img');
  image.setAttribute('aria-label', t('two-factor-scan'));
  image.classList.add('qr');
  return image;
}

/** @param {HTMLElement} body @param {() => void} refill */
export async function twoFactor(body, refill) {
  /** @type {Schemas['TwoFactorStatus']} */
  const status = await call('GET', '/me/two-factor');
  if (status.enabled) {
    const code = codeInput('two-factor-off-code');
    body.replaceChildren(
      h('p', { id: 'two-factor-state' }, [t('two-factor-on', { n: status.recovery_codes_left })]),
      checkedForm('', [h('label', { for: 'two-factor-off-code' }, [t('two-factor-disable-code')]), code,
        h('button', { type: 'submit' }, [t('two-factor-disable')])], async () => {
        await call('POST', '/me/two-factor/disable', { code: code.value.trim() });
        say(t('saved'));
        refill();
      }),
    );
    return;
  }
  const start = async () => {
    /** @type {Schemas['Enrolment']} */
    const enrolment = await call('POST', '/me/two-factor', {});
    const code = codeInput('two-factor-code');
    body.replaceChildren(
      h('p', {}, [t('two-factor-scan')]),
      qrCode(enrolment.qr_svg),
      h('p', {}, [`${t('two-factor-secret')}: `, h('code', { id: 'two-factor-secret' }, [enrolment.secret])]),
      checkedForm('', [h('label', { for: 'two-factor-code' }, [t('two-factor-code')]), code,
        h('button', { type: 'submit' }, [t('two-factor-confirm')])], async () => {
        /** @type {Schemas['RecoveryCodes']} */
        const made = await call('POST', '/me/two-factor/confirm', { code: code.value.trim() });
        // Shown once: the section stays as it is until the page is left.
        body.replaceChildren(
          h('p', { id: 'two-factor-state' }, [t('two-factor-on', { n: made.recovery_codes.length })]),
          h('p', {}, [t('two-factor-codes')]),
          h('ul', { class: 'recovery', id: 'recovery-codes' }, made.recovery_codes.map((c) => h('li', {}, [h('code', {}, [c])]))),
        );
        say(t('saved'));
      }),
    );
  };
  body.replaceChildren(
    h('p', { id: 'two-factor-state' }, [t('two-factor-off')]),
    h('button', { type: 'button', id: 'two-factor-start', onclick: () => start().catch(failed) }, [t('two-factor-start')]),
  );
}
