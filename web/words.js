// @ts-check
/** Cards and decisions in words, and which cards a decision uses. */

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

/** @param {number} p */
function pawnName(p) {
  return p === 0 ? t('big-pawn') : String(p);
}

/** A decision in words. @param {Decision} d */
export function describe(d) {
  switch (d.type) {
    case 'lay':
      if (d.to) return t('lay-to', { card: cardName(d.card), pawn: pawnName(d.pawn ?? 0), to: d.to });
      if (d.path) return t('lay-path', { card: cardName(d.card), path: t(d.path) });
      return t('lay', { card: cardName(d.card) });
    case 'discard': return t('discard', { card: cardName(d.card) });
    case 'step': return t('step', { pawn: pawnName(d.pawn), to: d.to });
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
