// @ts-check
/** The game page's move log: every decision of the game read once (then only what is new), the
 * latest shown in words, each numbered as the record numbers it (the clock's time-outs are
 * moves too), those since the player's last turn marked. Stepping through it with the arrow keys
 * or pointing at an entry shows its move's space on the board. */

import { h } from './dom.js';
import { t } from './i18n.js';
import { didSay, targetOf } from './words.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */
/** @typedef {Schemas['Decision']} Decision */

/** How many of the latest moves the log shows. */
const SHOWN = 60;
/** Events read per request (the server's largest page). */
const PAGE = 1000;

/** @typedef {{ seq: number, seat: number, decision: Decision }} Move */

/** The moves of game `id` as they arrive. @param {number} id @param {(path: string) => Promise<any>} get */
export function moveLog(id, get) {
  /** Every move so far, oldest first: the n-th is move n + 1. @type {Move[]} */
  const moves = [];
  let lastSeq = 0;
  /** The entry last stepped to (its event's seq), -1 for the newest. */
  let at = -1;

  /** Reads the events past the last one read; the new moves (none on the first read, which
   * reads the whole game). */
  const read = async () => {
    const first = lastSeq === 0;
    /** @type {Move[]} */
    const fresh = [];
    for (;;) {
      /** @type {Schemas['EventView'][]} */
      const page = await get(`/games/${id}/events?after=${lastSeq}&limit=${PAGE}`);
      for (const e of page) {
        // Two reads may overlap (a move sent while the stream tells of one): each event once.
        if (e.seq <= lastSeq) continue;
        lastSeq = e.seq;
        /** @type {Move | null} */
        const move = e.kind === 'decided' ? { seq: e.seq, seat: e.data.seat, decision: e.data.decision }
          : e.kind === 'timed_out' ? { seq: e.seq, seat: e.data.seat, decision: { type: 'time_out' } } : null;
        if (move) {
          moves.push(move);
          fresh.push(move);
        }
      }
      if (page.length < PAGE) break;
    }
    return first ? [] : fresh;
  };

  /** The log as a section, and the spaces the others' moves since the player's last turn went
   * to. @param {HTMLElement} body the page (its board shows an entry's space)
   * @param {number | null} me @param {(seat: number) => string} names */
  const render = (body, me, names) => {
    const lastMine = me == null ? -1 : moves.map((m) => m.seat).lastIndexOf(me);
    /** @type {Set<string>} */
    const marked = new Set();
    /** @type {HTMLElement[]} */
    const entries = [];
    const from = Math.max(0, moves.length - SHOWN);
    moves.forEach((m, i) => {
      const since = lastMine >= 0 && i > lastMine;
      const to = targetOf(m.decision);
      if (since && to) marked.add(to);
      if (i < from) return;
      // The marker is no move: it takes no number (the moves carry theirs).
      if (since && i === lastMine + 1) entries.push(h('li', { class: 'since-mark' }, [t('since-your-turn')]));
      // Pointing at an entry (or tapping it) shows its move's space on the board.
      const show = (/** @type {boolean} */ on) => {
        if (to) body.querySelector(`svg g[data-id="${to}"]`)?.classList.toggle('shown', on);
      };
      // One tab stop for the log (the newest entry, or the one last stepped to); the arrow keys
      // step through it, and the entry with the focus shows its space too.
      const current = at === m.seq || (at === -1 && i === moves.length - 1);
      entries.push(h('li', {
        value: i + 1, class: since ? 'since' : '', 'data-seq': m.seq, 'data-to': to ?? false, tabindex: current ? '0' : '-1',
        onmouseenter: () => show(true), onmouseleave: () => show(false), onclick: () => show(true),
        onfocus: () => { at = m.seq; show(true); }, onblur: () => show(false),
      }, [didSay(names(m.seat), m.decision)]));
    });
    const section = h('section', { class: 'log-wrap', 'aria-labelledby': 'log-h' }, [
      h('h2', { id: 'log-h' }, [t('log')]),
      h('ol', { class: 'log', id: 'log', 'aria-labelledby': 'log-h', onkeydown: stepLog, ...(entries.length ? {} : { tabindex: '0' }) }, entries),
    ]);
    return { section, marked };
  };

  /** The last `n` moves, oldest first. @param {number} n */
  const recent = (n) => moves.slice(-n);

  return { read, render, recent };
}

/** Arrow keys (and Home, End) step through the move log's entries. @param {KeyboardEvent} e */
function stepLog(e) {
  const item = /** @type {HTMLElement} */ (e.target);
  if (item.tagName !== 'LI') return;
  const steps = { ArrowDown: 'next', ArrowUp: 'previous', Home: 'first', End: 'last' };
  const way = steps[/** @type {keyof typeof steps} */ (e.key)];
  if (!way) return;
  e.preventDefault();
  const all = [.../** @type {NodeListOf<HTMLElement>} */ (item.parentElement?.querySelectorAll('li[data-seq]') ?? [])];
  const index = all.indexOf(item);
  const to = { next: all[index + 1], previous: all[index - 1], first: all[0], last: all[all.length - 1] }[way];
  if (!to) return;
  item.tabIndex = -1;
  to.tabIndex = 0;
  to.focus();
}
