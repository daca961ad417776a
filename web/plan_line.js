// @ts-check
/**
 * Plans for the next turn at the command line: "plan: lay blue 4 then deck" leaves the steps of
 * your next turn while the others move (played the moment it begins, if every step is still
 * legal); "plan" says the plan waiting and what became of the last one; "plan: drop" drops it.
 * The answers are lines for the command line's live region.
 */

import { ApiError, call } from './api.js';
import { t } from './i18n.js';
import { didSay } from './words.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** A plan line: `plan:` (or `plan :`) and its words. */
export const PLAN_LINE = /^plan\s*:\s*(.*)$/i;

/**
 * Make (`words`), drop (the catalogue's word for it) or tell (`null`) the caller's plan in game
 * `id`, as it stands in `g`: the lines to tell.
 * @param {number} id @param {Schemas['GameDetail']} g @param {string | null} words
 * @returns {Promise<string[]>}
 */
export async function plan(id, g, words) {
  const me = g.seats.find((s) => s.seat === g.your_seat)?.user ?? '';
  try {
    if (words !== null && t('plan-drop').split('|').includes(words.toLowerCase())) {
      await call('DELETE', `/games/${id}/plan`);
      return [t('answer-plan-dropped')];
    }
    /** @type {Schemas['PlanState']} */
    const state = words === null
      ? await call('GET', `/games/${id}/plan`)
      : await call('PUT', `/games/${id}/plan`, { expected_version: g.version, alternatives: [{ text: words }] });
    const lines = [];
    const waiting = state.plan?.alternatives ?? [];
    if (waiting.length) {
      lines.push(t('answer-plan-kept'));
      for (const a of waiting) lines.push(...a.steps.map((d) => didSay(me, d)));
    } else {
      lines.push(t('answer-no-plan'));
    }
    const last = words === null ? state.outcomes[0] : undefined;
    if (last) {
      lines.push(last.played ? t('answer-plan-played', { steps: last.steps }) : t('answer-plan-not-played', { reason: last.reason ?? last.code ?? '' }));
    }
    return lines;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    /** @type {Schemas['ChoiceInWords'][]} */
    const offered = /** @type {any} */ (e.problem).choices ?? [];
    return [e.message, ...offered.map((c) => `${c.number}: ${c.words}`)];
  }
}
