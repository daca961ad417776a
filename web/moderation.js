// @ts-check
/** The moderators' page (`/moderation`): the open reports, each with the messages around the one
 * reported, and what to do about it (mute, suspend, dismiss, each with a reason); then the audit
 * log. Anyone else is told the page is for moderators. Also the report form players use. */

import { ApiError, call } from './api.js';
import { h, checkedForm, failed, say } from './dom.js';
import { t } from './i18n.js';
import { playerLink } from './players.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** A small form that reports `user` (or one of their messages) with a reason.
 * @param {string} user @param {number | null} messageId */
export function reportForm(user, messageId) {
  const reason = /** @type {HTMLInputElement} */ (h('input', { name: 'report-reason', required: true, maxlength: 1000, 'aria-label': t('report-reason') }));
  const form = checkedForm('report-form', [reason, h('button', { type: 'submit' }, [t('report-send')])], async () => {
    await call('POST', '/reports', { user, reason: reason.value, ...(messageId != null ? { message_id: messageId } : {}) });
    form.replaceChildren(t('report-sent'));
    say(t('report-sent'));
  });
  return form;
}

/** Show the moderation page in `main`. @param {HTMLElement} main */
export function showModeration(main) {
  main.replaceChildren(h('h1', {}, [t('moderation')]));
  const show = async () => {
    /** @type {Schemas['ReportView'][]} */
    let reports;
    try {
      reports = await call('GET', '/moderation/reports');
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) {
        main.replaceChildren(h('h1', {}, [t('moderation')]), h('p', {}, [t('moderators-only')]));
        return;
      }
      throw e;
    }
    /** @type {Schemas['AuditEntry'][]} */
    const audit = await call('GET', '/moderation/audit');
    /** @param {Schemas['ReportView']} r */
    const item = (r) => {
      const reason = /** @type {HTMLInputElement} */ (h('input', { required: true, maxlength: 1000, 'aria-label': t('moderation-reason') }));
      const button = (/** @type {string} */ label, /** @type {() => Promise<void>} */ run) => h('button', { type: 'button', onclick: () => {
        if (reason.reportValidity()) run().then(() => show(), failed);
      } }, [label]);
      const sanction = (/** @type {string} */ kind, /** @type {number} */ hours) => () => call('POST', `/moderation/players/${encodeURIComponent(r.user)}/${kind}`, { hours, reason: reason.value, report_id: r.id });
      return h('li', { class: 'report', 'data-id': r.id }, [
        h('p', {}, [playerLink(r.reporter), ` → `, playerLink(r.user), `: ${r.reason}`]),
        ...(r.context.length ? [h('ol', { class: 'chat' }, r.context.map((m) => h('li', { class: m.id === r.message?.id ? 'reported' : '' }, [`${m.user}: ${m.text}`])))] : []),
        h('p', { class: 'actions' }, [
          reason, ' ',
          button(t('mute-day'), sanction('mute', 24)), ' ',
          button(t('suspend-week'), sanction('suspend', 24 * 7)), ' ',
          button(t('dismiss'), () => call('POST', `/moderation/reports/${r.id}/dismiss`, { reason: reason.value })),
        ]),
      ]);
    };
    main.replaceChildren(
      h('h1', {}, [t('moderation')]),
      h('section', { 'aria-labelledby': 'reports-h' }, [h('h2', { id: 'reports-h' }, [t('open-reports')]),
        reports.length ? h('ul', { id: 'reports' }, reports.map(item)) : h('p', {}, [t('nothing')])]),
      h('section', { 'aria-labelledby': 'audit-h' }, [h('h2', { id: 'audit-h' }, [t('audit-log')]),
        audit.length
          ? h('ul', { id: 'audit' }, audit.map((a) => h('li', {}, [
            `${new Date(a.created_at).toLocaleString(document.documentElement.lang)} · ${a.moderator}: ${a.action} ${a.user ?? ''} · ${a.reason}`,
          ])))
          : h('p', {}, [t('nothing')])]),
    );
  };
  show().catch(failed);
  return () => {};
}
