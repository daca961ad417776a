// @ts-check
/** The table as a view shows it, shared by the game page and the record viewer: the board, the
 * discard piles, every seat (rows, wish stones, score as it stands, time left) and the result. */

import { h, duration, failed } from './dom.js';
import { t } from './i18n.js';
import { layout, renderBoard } from './board.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */
/** @typedef {Schemas['View']} View */
/** @typedef {Schemas['Card']} Card */
/** @typedef {Schemas['Decision']} Decision */
/** @typedef {Schemas['ClockView']} ClockView */

/** @param {Card} c */
export function cardFace(c) {
  return h('span', { class: `card c-${c.color}` }, [c.end ? '★' : String(c.value)]);
}

/**
 * @typedef {object} TableOptions
 * @property {(seat: number) => string} names
 * @property {Map<string, Decision[]>} [targets] spaces the player may pick, with their decisions
 * @property {(space: string) => void} [onPick]
 * @property {ClockView | null} [clock]
 */

/** The board (drawn once its layout has arrived), or nothing for Keltis Card.
 * @param {View} view @param {TableOptions} opts */
export function boardOf(view, opts) {
  const wrap = h('div', { class: 'board-wrap' });
  if (view.board) {
    layout(view.board.layout).then((b) => {
      wrap.replaceChildren(renderBoard(b, view, opts.targets ?? new Map(), opts.onPick ?? (() => {}), t, opts.names));
    }, failed);
  }
  return wrap;
}

/** @param {View} view */
export function pilesOf(view) {
  return h('div', { class: 'piles', 'aria-label': t('discard-piles'), role: 'group' },
    view.discard_piles.map((p) => {
      const top = p.cards[p.cards.length - 1];
      return h('div', { class: 'pile' }, [
        top ? cardFace(top) : h('span', { class: 'card empty' }, ['–']),
        h('small', {}, [`${t(p.color)} · ${p.cards.length}`]),
      ]);
    }));
}

/** A seat's wish stones in words. @param {View} view @param {Schemas['SeatView']} seat */
function stonesOf(view, seat) {
  if (view.stones) {
    return view.stones.filter((s) => s.taken_by === seat.seat).map((s) => s.value).join(' ');
  }
  return seat.wish_stones.map((s) => `${s.color ? t(s.color) : ''} ${s.count}`.trim()).join(', ');
}

/** Every seat: name, hand size, rows, wish stones, score as it stands, and time left.
 * @param {View} view @param {TableOptions} opts */
export function seatsOf(view, opts) {
  const clocks = new Map((opts.clock?.seats ?? []).map((c) => [c.seat, c]));
  const timed = clocks.size > 0;
  return h('table', { class: 'seats' }, [
    h('thead', {}, [h('tr', {}, [
      h('th', { scope: 'col' }, [t('seat')]), h('th', { scope: 'col' }, [t('rows')]),
      h('th', { scope: 'col' }, [t('stones')]), h('th', { scope: 'col' }, [t('score')]),
      ...(timed ? [h('th', { scope: 'col' }, [t('time-left')])] : []),
    ])]),
    h('tbody', {}, view.seats.map((s) => {
      const clock = clocks.get(s.seat);
      return h('tr', { class: s.seat === view.to_act ? 'to-act' : '' }, [
        h('th', { scope: 'row' }, [`${opts.names(s.seat)} (${t('hand-size', { n: s.hand_size })})${s.retired ? ` · ${t('retired')}` : ''}`]),
        h('td', {}, s.rows.map((r) => h('span', { class: 'row', 'aria-label': t(r.color) }, r.cards.map(cardFace)))),
        h('td', {}, [stonesOf(view, s)]),
        h('td', { class: 'score', 'data-seat': s.seat }, [String(s.score.total)]),
        ...(timed ? [h('td', {
          class: 'clock', 'data-remaining': clock?.remaining_ms ?? 0, 'data-running': clock?.running ? 'true' : 'false',
        }, [clock ? `${duration(clock.remaining_ms)}${clock.away ? ` · ${t('away')}` : ''}` : ''])] : []),
      ]);
    })),
  ]);
}

/** The final ranking, once the game is over. @param {View} view @param {(seat: number) => string} names */
export function resultOf(view, names) {
  const result = view.result;
  if (!result) return '';
  return h('section', { id: 'result', 'aria-labelledby': 'result-h' }, [
    h('h2', { id: 'result-h' }, [t('game-over')]),
    h('ol', {}, (result.ranking ?? []).map((seat) => {
      const score = result.scores.find((s) => s.seat === seat);
      const won = result.winners.includes(seat);
      return h('li', {}, [`${names(seat)}: ${score?.total ?? ''}${won ? ` · ${t('winner')}` : ''}`]);
    })),
  ]);
}

/** Whose turn, in words. @param {View} view @param {number | null} me @param {(seat: number) => string} names */
export function turnOf(view, me, names) {
  if (view.to_act == null) return t('game-over');
  return view.to_act === me ? t('your-turn') : t('turn-of', { name: names(view.to_act) });
}
