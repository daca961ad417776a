// @ts-check
/** How to play (`/help/<variant>`): each variant's rules in short, in the reader's language,
 * illustrated with the client's own drawings (rows of cards, the board). The rules of record are
 * the server's (`RULES.md`); these pages say what a player needs at the table. */

import { h, failed } from './dom.js';
import { t } from './i18n.js';
import { cardFace } from './table.js';
import { layout, renderBoard } from './board.js';
import { VARIANTS } from './players.js';

/** Each variant's paragraphs, by message key. */
const TEXT = {
  keltis: ['help-keltis-goal', 'help-rows', 'help-keltis-board', 'help-keltis-tiles', 'help-turn', 'help-keltis-end', 'help-keltis-score'],
  'neue-wege': ['help-neue-wege-goal', 'help-rows', 'help-neue-wege-board', 'help-neue-wege-tiles', 'help-turn', 'help-keltis-end', 'help-neue-wege-score'],
  'keltis-card': ['help-card-goal', 'help-rows', 'help-card-gray', 'help-card-stones', 'help-card-turn', 'help-card-end', 'help-card-score'],
};

/** A row of cards as the table shows it. @param {'green' | 'yellow' | 'brown' | 'blue' | 'pink'} color @param {number[]} values */
function row(color, values) {
  return h('span', { class: 'row' }, values.map((value) => cardFace({ color, value, end: false })));
}

/** The help screen of a variant. @param {HTMLElement} main @param {string} variant */
export function showHelp(main, variant) {
  const known = /** @type {keyof typeof TEXT} */ (variant in TEXT ? variant : 'keltis');
  const tabs = h('nav', { class: 'tabs', 'aria-label': t('help') }, VARIANTS.map((v) => h('a', {
    href: `/help/${v}`, 'aria-current': v === known ? 'page' : false,
  }, [t(`variant-${v}`)])));
  const examples = h('figure', { class: 'example' }, [
    h('p', {}, [row('blue', [3, 3, 6, 8]), ` ${t('direction-ascending')}`]),
    h('p', {}, [row('pink', [9, 8, 8, 5]), ` ${t('direction-descending')}`]),
    h('figcaption', {}, [t('help-rows-example')]),
  ]);
  const drawing = h('figure', { class: 'example board-example' });
  const paragraphs = TEXT[known].map((key) => {
    const p = h('p', {}, [t(key)]);
    return key === 'help-rows' ? [p, examples] : [p];
  }).flat();
  main.replaceChildren(h('h1', {}, [t('help-title', { variant: t(`variant-${known}`) })]), tabs, ...paragraphs, drawing);
  if (known !== 'keltis-card') {
    layout(known === 'keltis' ? 'keltis-base' : 'neue-wege').then((board) => {
      const empty = { seats: [], board: { tiles: [], piles: [] } };
      drawing.replaceChildren(renderBoard(board, empty, new Map(), () => {}, t, () => ''),
        h('figcaption', {}, [t('help-board-caption')]));
    }, failed);
  }
  return () => {};
}
