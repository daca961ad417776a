// @ts-check
/**
 * The text-first table (`/games/<id>/text`), for screen readers and keyboards: the game as
 * headings and lists (your hand, each player's rows, pawns and stones, the piles, whose turn,
 * time left), the other players' moves announced politely in words, and the command line as the
 * way to act. Nothing is told by colour or position alone: every card and space is named.
 */

import { call } from './api.js';
import { commandLine } from './command_line.js';
import { duration, failed, h } from './dom.js';
import { t } from './i18n.js';
import { followGame } from './live_game.js';
import { moveLog } from './move_log.js';
import { stonesOf, turnOf } from './table.js';
import { cardName, didSay, spaceName } from './words.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */
/** @typedef {Schemas['GameDetail']} GameDetail */

/** A list under a heading. @param {string} id @param {string} title @param {string[]} items */
const listed = (id, title, items) => h('section', { id, 'aria-labelledby': `${id}-h` }, [
  h('h2', { id: `${id}-h` }, [title]),
  items.length ? h('ul', {}, items.map((i) => h('li', {}, [i]))) : h('p', {}, [t('answer-none')]),
]);

/** A row in words: `green, rising: 3 5 7`. @param {Schemas['RowView']} r */
const rowWords = (r) => `${t(r.color)}, ${t(`direction-${r.direction}`)}: ${r.cards.map((c) => (c.end ? t('end-card') : c.value)).join(' ')}`;

/** Shows game `id` as text in `main`; returns what to do on leaving. @param {HTMLElement} main @param {number} id */
export function showTextTable(main, id) {
  /** @type {GameDetail | null} */
  let game = null;
  const body = h('div', { class: 'text-table' });
  const announce = h('p', { class: 'sr-only', 'aria-live': 'polite', id: 'announce' });
  const log = moveLog(id, (path) => call('GET', path));
  const name = (/** @type {number} */ seat) => game?.seats.find((s) => s.seat === seat)?.user ?? `${seat + 1}`;
  const command = commandLine(id, {
    game: () => game,
    played: (fresh) => {
      if (!game || fresh.version >= game.version) game = fresh;
      draw();
      readMoves().then(draw, () => {});
    },
    moves: (n) => log.recent(n),
  });
  main.replaceChildren(body, command.section, announce);

  const draw = () => {
    const g = game;
    if (!g) return;
    const view = g.state;
    const title = h('h1', {}, [t('text-table-title', {
      variant: t(`variant-${g.variant}`), players: g.seats.map((s) => s.user).join(', '),
    })]);
    const visual = h('p', {}, [h('a', { href: `/games/${id}`, id: 'board-view-link' }, [t('board-view-link')])]);
    if (!view) {
      body.replaceChildren(title, h('p', { id: 'text-turn' }, [t(`status-${g.status}`)]), visual);
      return;
    }
    const clocks = g.clock?.seats ?? [];
    const seats = view.seats.map((s) => {
      const clock = clocks.find((c) => c.seat === s.seat);
      const items = [
        t('text-score', { score: s.score.total }),
        t('hand-size', { n: s.hand_size }),
        ...s.rows.map(rowWords),
        ...s.pawns.map((p) => `${t(p.big ? 'did-pawn-big' : 'did-pawn')}: ${p.space ? spaceName(p.space) : t('answer-start')}`),
      ];
      const stones = String(stonesOf(view, s));
      if (stones) items.push(`${t('stones')}: ${stones}`);
      if (clock) items.push(t('answer-time', { name: s.seat === g.your_seat ? t('you') : name(s.seat), left: duration(clock.remaining_ms) }));
      if (s.retired) items.push(t('retired'));
      return h('section', { 'aria-labelledby': `text-seat-${s.seat}` }, [
        h('h3', { id: `text-seat-${s.seat}` }, [s.seat === view.to_act ? t('text-seat-to-act', { name: name(s.seat) }) : name(s.seat)]),
        h('ul', {}, items.map((i) => h('li', {}, [i]))),
      ]);
    });
    const piles = view.discard_piles.filter((p) => p.cards.length).map((p) => t('text-pile', {
      color: t(p.color), top: cardName(p.cards[p.cards.length - 1]), n: p.cards.length,
    }));
    body.replaceChildren(
      title,
      visual,
      h('p', { id: 'text-turn' }, [turnOf(view, g.your_seat ?? null, name)]),
      ...(g.your_seat != null ? [listed('text-hand', t('hand'), view.hand.map(cardName))] : []),
      h('section', { id: 'text-players', 'aria-labelledby': 'text-players-h' }, [h('h2', { id: 'text-players-h' }, [t('text-players')]), ...seats]),
      listed('text-piles', t('text-table-piles'), [t('draw-pile', { n: view.draw_pile_size }), ...piles]),
      listed('text-moves', t('text-last-moves'), log.recent(8).map((m) => didSay(name(m.seat), m.decision))),
    );
    command.refresh().catch(() => {});
  };

  /** Reads the new moves; the others' are announced, once each, in words. */
  const readMoves = async () => {
    const moves = await log.read();
    const theirs = moves.filter((m) => m.seat !== game?.your_seat);
    if (theirs.length) announce.textContent = theirs.map((m) => didSay(name(m.seat), m.decision)).join('. ');
  };

  const load = async () => {
    /** @type {GameDetail} */
    const fresh = await call('GET', `/games/${id}`);
    if (!game || fresh.version >= game.version) game = fresh;
    await readMoves().catch(() => {});
    draw();
  };
  let unfollow = () => {};
  load().then(() => {
    unfollow = followGame(id, { after: () => game?.version ?? 0, changed: () => { load().catch(failed); } });
  }, failed);
  return () => unfollow();
}
