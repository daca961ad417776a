// @ts-check
/** The record viewer: a finished game step by step, from the deal to the end, as a spectator or
 * as any seat (hands included: the record shows them once the game is over). */

import { call, session } from './api.js';
import { h, failed } from './dom.js';
import { t } from './i18n.js';
import { boardOf, cardFace, pilesOf, resultOf, seatsOf } from './table.js';
import { didSay } from './words.js';
import { reviewPanel } from './review.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** Shows the record of game `id` in `main`; returns what to do on leaving. @param {HTMLElement} main @param {number} id */
export function showReplay(main, id) {
  let step = 0;
  let steps = 0;
  /** @type {number | null} */
  let seat = null;
  /** @type {(seat: number) => string} */
  let names = (s) => `#${s}`;
  let closed = false;
  /** @type {ReturnType<typeof reviewPanel> | null} */
  let review = null;
  const body = h('div', { class: 'replay' });
  const moves = h('ol', { class: 'moves', id: 'moves', start: 1 });
  main.replaceChildren(h('h1', {}, [t('record-of', { id })]), body);

  const show = async () => {
    /** @type {Schemas['ReplayStep']} */
    const at = await call('GET', `/games/${id}/record/steps/${step}${seat == null ? '' : `?seat=${seat}`}`);
    if (closed) return;
    steps = at.steps;
    const view = at.view;
    const button = (/** @type {string} */ label, /** @type {string} */ key, /** @type {number} */ to, /** @type {boolean} */ off) =>
      h('button', { type: 'button', 'data-step': key, disabled: off, onclick: () => go(to) }, [label]);
    const slider = h('input', {
      type: 'range', id: 'step', min: 0, max: steps, value: step, 'aria-label': t('step-of', { step, steps }),
      onchange: (/** @type {Event} */ e) => go(Number(/** @type {HTMLInputElement} */ (e.target).value)),
    });
    const who = h('select', { id: 'viewer', onchange: (/** @type {Event} */ e) => {
      const v = /** @type {HTMLSelectElement} */ (e.target).value;
      seat = v === '' ? null : Number(v);
      show().catch(failed);
    } }, [
      h('option', { value: '' }, [t('spectator')]),
      ...view.seats.map((s) => h('option', { value: s.seat, selected: s.seat === seat }, [names(s.seat)])),
    ]);
    for (const li of moves.children) li.classList.toggle('current', Number(/** @type {HTMLElement} */ (li).dataset.step) === step);
    body.replaceChildren(
      h('div', { class: 'controls', role: 'group', 'aria-label': t('steps') }, [
        button(`« ${t('first')}`, 'first', 0, step === 0), button(`‹ ${t('previous')}`, 'previous', step - 1, step === 0),
        h('span', { id: 'step-label', 'aria-live': 'polite' }, [t('step-of', { step, steps })]),
        button(`${t('next')} ›`, 'next', step + 1, step === steps), button(`${t('last')} »`, 'last', steps, step === steps),
      ]),
      slider,
      h('p', { id: 'last-move' }, [at.decision ? didSay(names(at.decision.seat), at.decision.decision) : t('the-deal')]),
      review?.at(step) ?? '',
      h('label', { for: 'viewer' }, [t('seen-by')]), who,
      step === steps ? resultOf(view, names) : '',
      h('div', { class: view.board ? 'table-layout' : '' }, [
        ...(view.board ? [boardOf(view, { names })] : []),
        h('div', { class: 'side' }, [
          h('p', {}, [t('draw-pile', { n: view.draw_pile_size })]),
          pilesOf(view),
          ...(seat != null ? [h('h2', {}, [t('hand-of', { name: names(seat) })]), h('div', { class: 'hand' }, view.hand.map(cardFace))] : []),
        ]),
      ]),
      seatsOf(view, { names }),
      review?.section ?? '',
      h('h2', {}, [t('moves')]), moves,
    );
  };

  /** @param {number} to */
  const go = (to) => {
    step = Math.max(0, Math.min(steps, to));
    show().catch(failed);
  };

  /** @param {KeyboardEvent} e */
  const keys = (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === 'ArrowRight') go(step + 1);
    if (e.key === 'ArrowLeft') go(step - 1);
  };
  document.addEventListener('keydown', keys);

  Promise.all([call('GET', `/games/${id}`), call('GET', `/games/${id}/record`)]).then(
    (/** @type {[Schemas['GameDetail'], Schemas['Record']]} */ [game, record]) => {
      names = (s) => game.seats.find((x) => x.seat === s)?.user ?? `#${s}`;
      moves.replaceChildren(...record.decisions.map((d, i) => h('li', { 'data-step': i + 1 }, [
        h('a', { href: `/records/${id}`, onclick: (/** @type {Event} */ e) => { e.preventDefault(); go(i + 1); } },
          [didSay(names(d.seat), d.decision)]),
      ])));
      const me = session()?.name;
      review = reviewPanel(id, {
        names, steps: record.decisions.length, moves, go,
        seated: game.seats.some((s) => s.user === me),
        loaded: () => { if (!closed) show().catch(failed); },
      });
      return show();
    },
  ).catch(failed);
  return () => {
    closed = true;
    review?.close();
    document.removeEventListener('keydown', keys);
  };
}
