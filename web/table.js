// @ts-check
/** The table as a view shows it, shared by the game page and the record viewer: the board, the
 * discard piles, every seat (rows, wish stones, score as it stands, time left) and the result. */

import { h, duration, failed } from './dom.js';
import { t } from './i18n.js';
import { SEAT_COLORS, layout, renderBoard } from './board.js';
import { tileName } from './words.js';
import { playerLink } from './players.js';

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
 * @property {Set<string>} [marked] spaces the other players' last moves went to
 */

/** The board (drawn once its layout has arrived) with its legend, or nothing for Keltis Card.
 * @param {View} view @param {TableOptions} opts */
export function boardOf(view, opts) {
  const drawing = h('div', { class: 'board-drawing' });
  const wrap = h('div', { class: 'board-wrap' }, [drawing, legendOf(view, opts.names)]);
  if (view.board) {
    layout(view.board.layout).then((b) => {
      drawing.replaceChildren(renderBoard(b, view, opts.targets ?? new Map(), opts.onPick ?? (() => {}), t, opts.names, opts.marked ?? new Set()));
    }, failed);
  }
  return wrap;
}

/** What the board's marks are: each seat's pawn colour (and how many wait at the start), the goal
 * zone's count, the tiles. @param {View} view @param {(seat: number) => string} names */
function legendOf(view, names) {
  const seats = view.seats.map((s, i) => {
    const atStart = s.pawns.filter((p) => p.space == null).length;
    return h('li', {}, [
      // A class, not a style attribute: the page's policy allows no inline style.
      h('span', { class: `swatch seat-${i % SEAT_COLORS.length}`, 'aria-hidden': 'true' }),
      ` ${names(s.seat)}`, atStart ? ` · ${t('at-start', { n: atStart })}` : '',
    ]);
  });
  const tiles = [...new Set((view.board?.tiles ?? []).map((p) => p.tile.replace(/^points_\d$/, 'points_1')))]
    .map((tile) => h('li', {}, [h('span', { class: 'glyph', 'aria-hidden': 'true' }, [glyph(tile)]), ` ${tile.startsWith('points_') ? t('tile-points-any') : tileName(tile)}`]));
  return h('div', { class: 'legend', id: 'legend' }, [
    h('p', { id: 'goal-count' }, [t('goal-count', { n: view.board?.goal_pawns ?? 0 })]),
    h('ul', { class: 'pawn-legend', 'aria-label': t('pawns') }, seats),
    h('ul', { class: 'tile-legend', 'aria-label': t('tiles') }, tiles),
  ]);
}

/** The mark a tile has on the board. @param {string} tile */
function glyph(tile) {
  if (tile.startsWith('points_')) return '1–9';
  if (tile.startsWith('wish_stone')) return '●';
  return tile === 'clover' ? '♣' : '✕';
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
export function stonesOf(view, seat) {
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
      h('th', { scope: 'col' }, [t('score-parts')]),
      ...(timed ? [h('th', { scope: 'col' }, [t('time-left')])] : []),
    ])]),
    h('tbody', {}, view.seats.map((s) => {
      const clock = clocks.get(s.seat);
      return h('tr', { class: s.seat === view.to_act ? 'to-act' : '' }, [
        h('th', { scope: 'row' }, [playerLink(opts.names(s.seat)), ` (${t('hand-size', { n: s.hand_size })})${s.retired ? ` · ${t('retired')}` : ''}`]),
        h('td', { class: 'rows' }, s.rows.map((r) => h('span', { class: 'row', title: `${t(r.color)}: ${t(`direction-${r.direction}`)}` },
          [h('span', { class: 'direction', 'aria-label': `${t(r.color)}, ${t(`direction-${r.direction}`)}` }, [ARROWS[r.direction] ?? '']),
            ...r.cards.map(cardFace), h('small', { class: 'next' }, [nextOf(r)])]))),
        h('td', { class: 'stones', 'data-label': t('stones') }, [stonesOf(view, s)]),
        h('td', { class: 'score', 'data-seat': s.seat, 'data-label': t('score') }, [String(s.score.total)]),
        h('td', { class: 'breakdown' }, [breakdownOf(s.score, !!view.board)]),
        ...(timed ? [h('td', {
          class: 'clock', 'data-remaining': clock?.remaining_ms ?? 0, 'data-running': clock?.running ? 'true' : 'false',
        }, [clock ? `${duration(clock.remaining_ms)}${clock.away ? ` · ${t('away')}` : ''}` : ''])] : []),
      ]);
    })),
  ]);
}

/** A row's direction as a mark (its words are the mark's name). */
const ARROWS = { ascending: '↑', descending: '↓', open: '↕' };

/** What may follow on a row: `≥ 6`, `≤ 8`, or anything while it is open. @param {Schemas['RowView']} r */
function nextOf(r) {
  const last = r.cards[r.cards.length - 1]?.value;
  if (last == null || r.cards.some((c) => c.end)) return '';
  if (r.direction === 'ascending') return t('next-up', { last });
  if (r.direction === 'descending') return t('next-down', { last });
  return '';
}

/** A score by part, in words. @param {Schemas['Score']} score @param {boolean} board */
function breakdownOf(score, board) {
  const parts = board
    ? [['pawns', score.pawns], ['score-tile-points', score.tile_points], ['stones', score.wish_stones]]
    : [['paths', score.paths], ['gray-path', score.gray_path], ['stones', score.wish_stones]];
  return parts.map(([k, v]) => `${t(/** @type {string} */ (k))} ${v}`).join(' · ');
}

/** The final ranking, once the game is over. @param {View} view @param {(seat: number) => string} names */
export function resultOf(view, names) {
  const result = view.result;
  if (!result) return '';
  return h('section', { id: 'result', 'aria-labelledby': 'result-h' }, [
    // "Game over" is the turn line's already: this is the ranking.
    h('h2', { id: 'result-h' }, [t('final-ranking')]),
    h('ol', {}, (result.ranking ?? []).map((seat) => {
      const score = result.scores.find((s) => s.seat === seat);
      const won = result.winners.includes(seat);
      return h('li', {}, [playerLink(names(seat)), `: ${score?.total ?? ''}${won ? ` · ${t('winner')}` : ''}`]);
    })),
  ]);
}

/** Whose turn, in words. @param {View} view @param {number | null} me @param {(seat: number) => string} names */
export function turnOf(view, me, names) {
  if (view.to_act == null) return t('game-over');
  return view.to_act === me ? t('your-turn') : t('turn-of', { name: names(view.to_act) });
}
