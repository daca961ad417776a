// @ts-check
/** The review of a finished game beside its record: each player's figures, a graph of their
 * winning chances across the game, each judged decision's mark in the moves list with the better
 * choice, and a jump to the next mistake. A player who sat at the game asks for it. */

import { call } from './api.js';
import { h, failed } from './dom.js';
import { t } from './i18n.js';
import { didSay } from './words.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

const NS = 'http://www.w3.org/2000/svg';
/** Seconds between looks while the review is on its way. */
const WAIT_MS = 2000;

/** @param {string} name @param {Record<string, string | number>} attrs */
function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** Each seat's winning chance at its own decisions, as a line across the game.
 * @param {Schemas['ReviewReport']} review @param {number} steps @param {(seat: number) => string} names */
function graph(review, steps, names) {
  const svg = el('svg', { viewBox: '0 0 300 100', class: 'review-graph', role: 'img', id: 'review-graph' });
  svg.setAttribute('aria-label', t('review-graph'));
  svg.append(el('line', { x1: 0, y1: 50, x2: 300, y2: 50, class: 'even' }));
  for (const seat of review.summary.map((s) => s.seat)) {
    const points = review.decisions.filter((d) => d.seat === seat)
      .map((d) => `${((d.index + 1) / Math.max(steps, 1) * 300).toFixed(1)},${((1 - d.win_chance) * 100).toFixed(1)}`);
    const line = el('polyline', { points: points.join(' '), class: `seat-line seat-${seat}`, 'data-seat': seat });
    const title = el('title', {});
    title.textContent = names(seat);
    line.append(title);
    svg.append(line);
  }
  return svg;
}

/** The review panel of game `id`. `go(step)` shows a step of the record; `seated`: the viewer sat
 * at the game (and may ask for the review).
 * `loaded()` is called once the review is there.
 * @param {number} id @param {{ names: (seat: number) => string, steps: number, seated: boolean, go: (step: number) => void, loaded: () => void, moves: HTMLElement }} o */
export function reviewPanel(id, o) {
  const section = h('section', { id: 'review', 'aria-labelledby': 'review-title' });
  /** @type {Schemas['ReviewReport'] | null} */
  let review = null;
  let closed = false;

  /** The judged decision that led to `step`, if any. @param {number} step */
  const judged = (step) => review?.decisions.find((d) => d.index === step - 1) ?? null;

  /** A decision's mark and the better choice, in words. @param {Schemas['JudgedDecision']} d */
  const verdict = (d) => {
    const parts = [];
    if (d.mark) parts.push(t(`mark-${d.mark}`));
    parts.push(t('review-cost', { points: d.points_lost, chance: Math.round(d.chance_lost * 100) }));
    if (d.mark) parts.push(t('review-better', { move: didSay(o.names(d.seat), d.best) }));
    return parts.join(' · ');
  };

  const render = (/** @type {Schemas['GameReview'] | null} */ answer) => {
    const title = h('h2', { id: 'review-title' }, [t('review')]);
    if (!answer) {
      section.replaceChildren(title, o.seated
        ? h('button', { type: 'button', id: 'review-ask', onclick: () => call('POST', `/games/${id}/review`, {}).then(render, failed) }, [t('review-ask')])
        : h('p', {}, [t('review-none')]));
      return;
    }
    if (answer.state === 'queued' || answer.state === 'running') {
      section.replaceChildren(title, h('p', { id: 'review-waiting', 'aria-live': 'polite' }, [t('review-waiting')]));
      setTimeout(() => { if (!closed) load(); }, WAIT_MS);
      return;
    }
    if (!answer.review) {
      section.replaceChildren(title, h('p', {}, [t('review-failed')]));
      return;
    }
    review = answer.review;
    const rows = review.summary.map((p) => h('tr', { 'data-seat': p.seat }, [
      h('th', { scope: 'row' }, [h('span', { class: `swatch seat-${p.seat}`, 'aria-hidden': 'true' }), ' ', o.names(p.seat)]),
      h('td', { class: 'accuracy' }, [`${p.accuracy.toFixed(1)}`]),
      h('td', {}, [String(p.inaccuracies)]), h('td', {}, [String(p.mistakes)]), h('td', {}, [String(p.blunders)]),
      h('td', {}, [`${p.luck > 0 ? '+' : ''}${p.luck.toFixed(1)}`]),
    ]));
    section.replaceChildren(
      title,
      // Scrolled sideways inside its own box where a phone is narrower than the table.
      h('div', { class: 'table-scroll' }, [h('table', { class: 'review-summary' }, [
        h('thead', {}, [h('tr', {}, [h('th', {}, []), ...['review-accuracy', 'review-inaccuracies', 'review-mistakes', 'review-blunders', 'review-luck'].map((k) => h('th', { scope: 'col' }, [t(k)]))])]),
        h('tbody', {}, rows),
      ])]),
      h('p', { class: 'review-accuracy-note' }, [t('review-accuracy-note')]),
      graph(review, o.steps, o.names),
    );
    // The moves list: each marked decision says so.
    for (const d of review.decisions) {
      if (!d.mark) continue;
      const li = o.moves.querySelector(`li[data-step="${d.index + 1}"]`);
      if (!li || li.querySelector('.mark')) continue;
      li.classList.add(`marked-${d.mark}`);
      li.append(' ', h('span', { class: `mark mark-${d.mark}`, 'data-mark': d.mark }, [t(`mark-${d.mark}`)]));
    }
    o.loaded();
  };

  // 204 (no body: `null`) until someone asks for the review.
  const load = () => call('GET', `/games/${id}/review`).then(render, failed);
  load();

  return {
    section,
    /** What the review says of the decision that led to `step`, and the jump to the next
     * mistake after it. @param {number} step */
    at: (step) => {
      if (!review) return '';
      const d = judged(step);
      const next = review.decisions.find((x) => x.index + 1 > step && (x.mark === 'mistake' || x.mark === 'blunder'));
      return h('div', { class: 'judgement' }, [
        d ? h('p', { id: 'judgement', 'data-mark': d.mark ?? '' }, [verdict(d)]) : '',
        next ? h('button', { type: 'button', id: 'next-mistake', onclick: () => o.go(next.index + 1) }, [t('review-next-mistake')]) : '',
      ]);
    },
    close: () => { closed = true; },
  };
}
