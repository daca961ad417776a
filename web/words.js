// @ts-check
/** Cards, spaces, pawns, tiles and decisions in words (never the server's ids), and which cards
 * a decision uses. */

import { t } from './i18n.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */
/** @typedef {Schemas['Card']} Card */
/** @typedef {Schemas['Decision']} Decision */

/** A card's words: `blue 7`, `gray end` (the server's `card` message). @param {Card} c */
export function cardName(c) {
  return c.end ? t('card-end', { color: t(c.color) }) : t('card', { color: t(c.color), value: c.value ?? '' });
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
 * Where the deciding player's pawns stand (`null`: on the start), to name a pawn in a choice.
 * @typedef {(pawn: number) => string | null} PawnPlace
 */

/** A pawn: in a choice, by size and place (`the big pawn from the start`, `the pawn on blue path,
 * step 2`); in what was done, by size (`a pawn`). @param {number} pawn @param {PawnPlace} [place] */
function pawnName(pawn, place) {
  const big = pawn === 0;
  if (!place) return t(big ? 'did-pawn-big' : 'did-pawn');
  const at = place(pawn);
  if (at == null) return t(big ? 'move-pawn-big-start' : 'move-pawn-start');
  return t(big ? 'move-pawn-big-on' : 'move-pawn-on', { space: spaceName(at) });
}

/** A colour's word and id (for the languages whose adjectives agree). @param {string} color */
const colorArgs = (color) => ({ color: t(color), color_id: color });

/**
 * The arguments of a decision's words, and the end of its message's name (`move-` for a choice,
 * `did-` for what a player did): the server's `service/words/saying.rs` says them alike.
 * @param {Decision} d @param {PawnPlace} [place] @returns {[string, Record<string, string | number>]}
 */
function wordsOf(d, place) {
  switch (d.type) {
    case 'lay':
      if (d.pawn != null && d.to) return ['lay-pawn', { card: cardName(d.card), pawn: pawnName(d.pawn, place), to: spaceName(d.to) }];
      if (d.path) return ['lay-path', { card: cardName(d.card), path: t(d.path), path_id: d.path }];
      return ['lay', { card: cardName(d.card) }];
    case 'discard': case 'discard_from_hand': return ['discard', { card: cardName(d.card) }];
    case 'step': return ['step', { pawn: pawnName(d.pawn, place), to: spaceName(d.to) }];
    case 'skip': return ['skip', {}];
    case 'discard_from_row': return ['discard-row', colorArgs(d.color)];
    case 'draw_deck': return ['draw-deck', {}];
    case 'draw_pile': return ['draw-pile', colorArgs(d.color)];
    case 'take_stone': {
      const [a, b] = d.cards;
      return ['take-stone', { value: a.value ?? 0, card: cardName(a), card2: cardName(b) }];
    }
    case 'pass': return ['pass', {}];
    case 'resign': return ['resign', {}];
    case 'time_out': return ['time-out', {}];
    default: return [/** @type {{type: string}} */ (d).type, {}];
  }
}

/** A choice of the turn in words, as the API and email say it: `lay blue 4, a pawn from the
 * start to blue path, step 1`. @param {Decision} d @param {PawnPlace} place where the deciding
 * player's pawns stand */
export function describe(d, place) {
  const [name, args] = wordsOf(d, place);
  return t(`move-${name}`, args);
}

/** What a player did, in words: `anna laid blue 4`. @param {string} who @param {Decision} d */
export function didSay(who, d) {
  const [name, args] = wordsOf(d);
  return t(`did-${name}`, { ...args, who });
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
