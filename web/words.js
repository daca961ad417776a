// @ts-check
/** Cards, spaces, pawns, tiles and decisions in words (never the server's ids), and which cards
 * a decision uses. */

import { t } from './i18n.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */
/** @typedef {Schemas['Card']} Card */
/** @typedef {Schemas['Decision']} Decision */

/** A card's words: `blue 7`, `gray end`. @param {Card} c */
export function cardName(c) {
  return `${t(c.color)} ${c.end ? t('end-card') : c.value}`;
}

/** @param {Card | null | undefined} a @param {Card | null | undefined} b */
export function sameCard(a, b) {
  return !!a && !!b && a.color === b.color && a.value === b.value && !!a.end === !!b.end;
}

/** A space as players say it: `blue path, step 3` (Keltis), `row 3, column 2` (Neue Wege).
 * @param {string} id */
export function spaceName(id) {
  const path = /^(green|yellow|brown|blue|pink)-(\d+)$/.exec(id);
  if (path) return t('space-path', { color: t(path[1]), step: Number(path[2]) });
  const grid = /^r(\d+)c(\d+)$/.exec(id);
  if (grid) return t('space-grid', { row: Number(grid[1]), column: Number(grid[2]) + 1 });
  return id;
}

/** A tile as players say it: `3 points`, `clover`, `blue wish stone`. @param {string} tile */
export function tileName(tile) {
  const points = /^points_(\d)$/.exec(tile);
  if (points) return t('tile-points', { n: Number(points[1]) });
  const stone = /^wish_stone_(\w+)$/.exec(tile);
  if (stone) return t('tile-stone-color', { color: t(stone[1]) });
  if (tile === 'wish_stone') return t('tile-stone');
  if (tile === 'clover') return t('tile-clover');
  if (tile === 'discard') return t('tile-discard');
  return tile;
}

/**
 * Where the player's pawns stand, for naming a pawn by its place.
 * @typedef {(pawn: number) => string | null} PawnPlace
 */

/** A pawn by size and place: `the big pawn on blue path, step 2`, `a pawn from the start`.
 * @param {number} pawn @param {PawnPlace} [place] */
function pawnName(pawn, place) {
  const big = pawn === 0;
  if (!place) return t(big ? 'pawn-big' : 'pawn');
  const at = place(pawn);
  if (at == null) return t(big ? 'pawn-big-start' : 'pawn-start');
  return t(big ? 'pawn-big-on' : 'pawn-on', { space: spaceName(at) });
}

/** A decision in words. @param {Decision} d @param {PawnPlace} [place] where the deciding
 * player's pawns stand (without it, pawns are named by size only) */
export function describe(d, place) {
  switch (d.type) {
    case 'lay':
      if (d.to) return t('lay-to', { card: cardName(d.card), pawn: pawnName(d.pawn ?? 0, place), to: spaceName(d.to) });
      if (d.path) return t('lay-path', { card: cardName(d.card), path: t(d.path) });
      return t('lay', { card: cardName(d.card) });
    case 'discard': return t('discard', { card: cardName(d.card) });
    case 'step': return t('step', { pawn: pawnName(d.pawn, place), to: spaceName(d.to) });
    case 'skip': return t('skip');
    case 'discard_from_hand': return t('discard-from-hand', { card: cardName(d.card) });
    case 'discard_from_row': return t('discard-from-row', { color: t(d.color) });
    case 'draw_deck': return t('draw-deck');
    case 'draw_pile': return t('draw-pile-color', { color: t(d.color) });
    case 'take_stone': return t('take-stone', { cards: d.cards.map(cardName).join(', ') });
    case 'pass': return t('pass');
    case 'resign': return t('resign');
    case 'time_out': return t('time-out');
    default: return /** @type {{type: string}} */ (d).type;
  }
}

/** The cards a decision uses from the hand. @param {Decision} d @returns {Card[]} */
export function cardsOf(d) {
  switch (d.type) {
    case 'take_stone': return d.cards;
    case 'lay': case 'discard': case 'discard_from_hand': return [d.card];
    default: return [];
  }
}

/** The space a decision moves a pawn to, if any. @param {Decision} d */
export function targetOf(d) {
  if (d.type === 'lay' || d.type === 'step') return d.to ?? null;
  return null;
}
