// @ts-check
/**
 * "Plan my next turn": while the others move, the player leaves the steps of their next turn,
 * played the moment it begins if every step is still legal (and its conditions hold). The panel
 * lists the choices that turn will open (as it would begin if the others changed nothing: the
 * hand shown above is the hand it is played from, which the others never change), one step after
 * another; the conditions; then keeps the plan, shows it and drops it. The choices are asked for
 * only when the player opens the builder: asked at every move, they would often come back
 * refused (the others' move, a bot's at once, had already given the turn back), and cost a
 * request a move for a panel most turns leave closed.
 */

import { ApiError, call } from './api.js';
import { h } from './dom.js';
import { language, t } from './i18n.js';
import { didSay } from './words.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */
/** @typedef {Schemas['GameDetail']} GameDetail */

/** @param {number} id the game */
export function planPanel(id) {
  const heading = () => h('h2', { id: 'plan-h' }, [t('plan-title')]);
  const section = h('section', { id: 'plan', 'aria-labelledby': 'plan-h', class: 'plan', hidden: true }, [heading()]);
  const status = h('p', { id: 'plan-status', role: 'status', 'aria-live': 'polite' });
  /** The game as last drawn, and the version the panel was drawn for. @type {GameDetail | null} */
  let game = null;
  let drawnFor = -1;
  /** The steps chosen so far, in words. @type {string[]} */
  let steps = [];
  /** Whether the player opened the builder (its choices are then asked for). */
  let building = false;

  /** An API call whose refusal is said in the panel (`null` then). @param {() => Promise<any>} f */
  const said = async (f) => {
    try {
      return await f();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      status.textContent = e.message;
      return null;
    }
  };

  /** The plan waiting, in words, with the button that drops it. @param {Schemas['PlanView']} plan */
  const waiting = (plan) => {
    const me = game?.seats.find((s) => s.seat === game?.your_seat)?.user ?? '';
    return h('div', { id: 'plan-waiting' }, [
      h('p', {}, [t('plan-waiting')]),
      ...plan.alternatives.map((a, i) => h('div', {}, [
        i > 0 ? h('p', {}, [t('plan-or-else')]) : '',
        h('ol', {}, a.steps.map((d) => h('li', {}, [didSay(me, d)]))),
        a.conditions.length ? h('p', { class: 'hint' }, [a.conditions.map((c) => t(`plan-if-${c}`)).join(' · ')]) : '',
      ])),
      h('button', { type: 'button', id: 'plan-drop', onclick: () => said(async () => {
        await call('DELETE', `/games/${id}/plan`);
        status.textContent = t('plan-dropped');
        await show();
      }) }, [t('plan-drop-button')]),
    ]);
  };

  /** The form that builds a plan step by step. @param {Schemas['TurnInWords']} next */
  const builder = (next) => {
    const board = Boolean(game?.state?.board);
    const conditions = ['piles_unchanged', ...(board ? ['spaces_unchanged'] : [])].map((c) => h('label', {}, [
      h('input', { type: 'checkbox', name: 'condition', value: c }),
      ` ${t(`plan-if-${c}`)}`,
    ]));
    const keep = () => said(async () => {
      const chosen = [...section.querySelectorAll('input[name="condition"]:checked')].map((e) => /** @type {HTMLInputElement} */ (e).value);
      await call('PUT', `/games/${id}/plan`, {
        expected_version: next.version,
        alternatives: [{ text: steps.join(` ${t('plan-then')} `), conditions: chosen }],
      });
      steps = [];
      building = false;
      status.textContent = t('plan-kept');
      await show();
    });
    return h('div', { id: 'plan-builder' }, [
      h('p', { class: 'hint' }, [t('plan-hint')]),
      steps.length ? h('ol', { id: 'plan-steps' }, steps.map((s) => h('li', {}, [s]))) : '',
      next.choices.length
        ? h('ul', { id: 'plan-choices', class: 'choices' }, next.choices.map((c) => h('li', {}, [
          h('button', { type: 'button', onclick: () => { steps.push(c.words); show(); } }, [c.words]),
        ])))
        : h('p', {}, [t('plan-turn-ends')]),
      h('fieldset', {}, [h('legend', {}, [t('plan-conditions')]), ...conditions]),
      h('button', { type: 'button', id: 'plan-keep', disabled: !steps.length, onclick: keep }, [t('plan-keep')]),
      steps.length ? h('button', { type: 'button', id: 'plan-clear', onclick: () => { steps = []; show(); } }, [t('plan-clear')]) : '',
    ]);
  };

  /** Draw the panel: the plan waiting, or the builder's next choices after the steps chosen so
   * far, or the button that opens the builder. */
  const show = async () => {
    /** @type {Schemas['PlanState'] | null} */
    const state = await said(() => call('GET', `/games/${id}/plan`));
    if (!state) return;
    let content;
    if (state.plan) {
      content = waiting(state.plan);
    } else if (!building) {
      content = h('button', { type: 'button', id: 'plan-start', onclick: () => { building = true; show(); } }, [t('plan-start')]);
    } else {
      const after = steps.length ? `&after=${encodeURIComponent(steps.join(` ${t('plan-then')} `))}` : '';
      /** @type {Schemas['TurnInWords'] | null} */
      const next = await said(() => call('GET', `/games/${id}/plan/choices?language=${language()}${after}`));
      content = next ? builder(next) : '';
    }
    section.replaceChildren(heading(), content, status);
  };

  /** Shown while the game runs and another seat is to act; drawn again when the game moves.
   * @param {GameDetail} g */
  const refresh = async (g) => {
    game = g;
    const planning = g.your_seat != null && g.status === 'active' && g.state?.to_act !== g.your_seat;
    section.hidden = !planning;
    if (!planning || g.version === drawnFor) return;
    drawnFor = g.version;
    steps = [];
    building = false;
    await show();
  };
  return { section, refresh };
}
