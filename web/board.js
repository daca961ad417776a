// @ts-check
/** The board as SVG, drawn from the layout data: spaces by row (Start at the bottom), paths
 * between them, values, tiles drawn as what they are (points with their value, clover, wish
 * stone, discard), wish-stone piles with their height, and every player's pawns in the seat's
 * colour (the big one larger); and the legend that says what each mark is. */

import { spaceName, tileName } from './words.js';

const NS = 'http://www.w3.org/2000/svg';
const CELL = 56;
const COLORS = ['green', 'yellow', 'brown', 'blue', 'pink'];
/** A pawn's radius (a space's ring is 22): the big pawn larger. */
const PAWN_RADIUS = { small: 7, big: 10 };
/** The seats' pawn colours, told apart from the card colours and from each other. */
export const SEAT_COLORS = ['#c0392b', '#2c3e50', '#8e44ad', '#d35400'];

/** @type {Map<string, any>} */
const layouts = new Map();

/** The layout (from the server's copy of the board data), fetched once. @param {string} id */
export async function layout(id) {
  if (!layouts.has(id)) {
    const r = await fetch(`/web/boards/${encodeURIComponent(id)}.json`);
    layouts.set(id, await r.json());
  }
  return layouts.get(id);
}

/** @param {string} name @param {Record<string, string | number>} attrs */
function el(name, attrs = {}) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** Column of a space: `r3c2` says it; a colour path is its colour's column. @param {any} space */
function column(space) {
  const m = /c(\d+)$/.exec(space.id);
  return m ? Number(m[1]) : Math.max(0, COLORS.indexOf(space.color));
}

/**
 * @param {any} board the layout
 * @param {any} view the player's view
 * @param {Map<string, any[]>} targets spaces a chosen card may reach, with their decisions
 * @param {(space: string) => void} onPick
 * @param {(key: any, params?: any) => string} t
 * @param {(seat: number) => string} names
 * @param {Set<string>} [marked] spaces the other players' last moves went to
 */
export function renderBoard(board, view, targets, onPick, t, names, marked = new Set()) {
  const cols = Math.max(...board.spaces.map(column)) + 1;
  // Rows from the lowest space's (the start is off the board) to the board's top.
  const lowest = Math.min(...board.spaces.map((/** @type {any} */ s) => s.row));
  const width = cols * CELL;
  const height = (board.rows - lowest + 1) * CELL;
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, class: 'board', role: 'group' });
  svg.setAttribute('aria-label', t('board'));
  /** @type {Map<string, {x: number, y: number}>} */
  const at = new Map();
  for (const s of board.spaces) {
    at.set(s.id, { x: column(s) * CELL + CELL / 2, y: (board.rows - s.row) * CELL + CELL / 2 });
  }
  for (const s of board.spaces) {
    const from = at.get(s.id);
    for (const n of s.next) {
      const to = at.get(n);
      if (from && to) svg.append(el('line', { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: 'path' }));
    }
  }
  const tiles = new Map((view.board?.tiles ?? []).map((/** @type {any} */ p) => [p.space, p.tile]));
  const piles = new Map((view.board?.piles ?? []).map((/** @type {any} */ p) => [p.space, p]));
  for (const s of board.spaces) {
    const p = at.get(s.id);
    if (!p) continue;
    const g = el('g', { class: `space c-${s.color}${s.goal ? ' goal' : ''}`, 'data-id': s.id });
    g.append(el('circle', { cx: p.x, cy: p.y, r: CELL * 0.4 }));
    const value = el('text', { x: p.x, y: p.y - 8, class: 'value' });
    value.textContent = String(s.value);
    g.append(value);
    const tile = tiles.get(s.id);
    if (tile) g.append(tileMark(tile, p));
    const pile = piles.get(s.id);
    if (pile) {
      const stone = el('circle', { cx: p.x + 12, cy: p.y + 8, r: 6, class: `stone c-${pile.color}` });
      const title = el('title');
      title.textContent = t('stone-pile', { color: t(pile.color), n: pile.stones });
      stone.append(title);
      g.append(stone);
    }
    if (marked.has(s.id)) g.classList.add('last-move');
    const choices = targets.get(s.id);
    if (choices) {
      g.classList.add('target');
      g.setAttribute('role', 'button');
      g.setAttribute('tabindex', '0');
      g.setAttribute('aria-label', `${spaceName(s.id)} (${s.value})`);
      g.dataset.space = s.id;
      g.dataset.choices = String(choices.length);
      g.addEventListener('click', () => onPick(s.id));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onPick(s.id);
        }
      });
    }
    svg.append(g);
  }
  // Pawns: one place per seat inside the space's ring (the first two below its value, the others
  // beside it), so that pawns on one space stay apart; each ringed in white, to stand out on
  // every path's colour.
  view.seats.forEach((/** @type {any} */ seat, /** @type {number} */ i) => {
    for (const pawn of seat.pawns) {
      if (!pawn.space) continue;
      const p = at.get(pawn.space);
      if (!p) continue;
      const dx = (i % 2 ? 1 : -1) * (i < 2 ? 10 : 14);
      const dy = i < 2 ? 10 : -5;
      const c = el('circle', {
        cx: p.x + dx, cy: p.y + dy, r: pawn.big ? PAWN_RADIUS.big : PAWN_RADIUS.small,
        fill: SEAT_COLORS[i % SEAT_COLORS.length], class: 'pawn',
      });
      const title = el('title');
      title.textContent = t(pawn.big ? 'pawn-big-of' : 'pawn-of', { name: names(seat.seat) });
      c.append(title);
      svg.append(c);
    }
  });
  return svg;
}

/** A tile drawn as what it is, with its name for screen readers and pointers.
 * @param {string} tile @param {{x: number, y: number}} p */
function tileMark(tile, p) {
  const g = el('g', { class: `tile-mark tile-${tile.replace(/_.*$/, '')}` });
  const points = /^points_(\d)$/.exec(tile);
  const stone = /^wish_stone(?:_(\w+))?$/.exec(tile);
  if (points) {
    g.append(el('rect', { x: p.x - 8, y: p.y + 1, width: 16, height: 14, rx: 2, class: 'tile' }));
    const n = el('text', { x: p.x, y: p.y + 12, class: 'tile-text' });
    n.textContent = points[1];
    g.append(n);
  } else if (stone) {
    g.append(el('circle', { cx: p.x, cy: p.y + 8, r: 6, class: `stone ${stone[1] ? `c-${stone[1]}` : 'any'}` }));
  } else {
    g.append(el('rect', { x: p.x - 8, y: p.y + 1, width: 16, height: 14, rx: 2, class: 'tile' }));
    const mark = el('text', { x: p.x, y: p.y + 12, class: 'tile-text' });
    mark.textContent = tile === 'clover' ? '♣' : '✕';
    g.append(mark);
  }
  const title = el('title');
  title.textContent = tileName(tile);
  g.append(title);
  return g;
}
