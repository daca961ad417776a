// @ts-check
/**
 * The command line at the table: type a move in words (completed from the turn's choices, as the
 * server says them) or a question ("hand", "rows", "board", "scores", "last moves", "time
 * left", "plan"), answered in words in a polite live region; "plan: ..." leaves the steps of
 * your next turn while the others move ("plan: drop" drops them). It works beside the board, for
 * everybody, and is the way to act at the text-first table.
 */

import { ApiError, call } from './api.js';
import { duration, h } from './dom.js';
import { language, t } from './i18n.js';
import { plan, PLAN_LINE } from './plan_line.js';
import { cardName, didSay, spaceName } from './words.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */
/** @typedef {Schemas['GameDetail']} GameDetail */
/** @typedef {{ seat: number, decision: Schemas['Decision'] }} Move */

/** The questions, by the catalogue's words for them (each `a|b` lists its synonyms). */
const QUESTIONS = ['hand', 'rows', 'board', 'scores', 'moves', 'time'];

/**
 * @param {number} id the game
 * @param {{ game: () => GameDetail | null, played: (fresh: GameDetail) => void,
 *   moves: (n: number) => Move[] }} table
 */
export function commandLine(id, table) {
  const input = /** @type {HTMLInputElement} */ (h('input', {
    id: 'command', type: 'text', autocomplete: 'off', spellcheck: 'false', list: 'command-choices',
    'aria-describedby': 'command-hint',
  }));
  const choices = h('datalist', { id: 'command-choices' });
  const answer = h('div', { id: 'command-answer', 'aria-live': 'polite', role: 'status' });
  /** The version whose choices are listed. */
  let listed = -1;
  /** Choices asked for so far: only the latest answer is listed. */
  let asked = 0;

  /** The turn's choices in words, as completions (once per version). */
  const refresh = async () => {
    const g = table.game();
    if (!g || g.your_seat == null || !g.state || g.version === listed) return;
    listed = g.version;
    const mine = ++asked;
    /** @type {Schemas['TurnInWords']} */
    let turn;
    try {
      turn = await call('GET', `/games/${id}/choices?language=${language()}`);
    } catch (e) {
      // Not listed after all: the page's next redraw asks again (it waited for the next version).
      if (mine === asked) listed = -1;
      throw e;
    }
    // Answers can come back out of order: an older version's, arriving last, left the list on
    // choices the turn no longer had, and nothing asked again until the next version.
    if (mine !== asked) return;
    choices.replaceChildren(...turn.choices.map((c) => h('option', { value: c.words }, [`${c.number}`])));
  };

  /** @param {string[]} lines */
  const tell = (lines) => answer.replaceChildren(...lines.map((l) => h('p', {}, [l])));

  /** The answer to a question, or null when `text` asks none. @param {string} text */
  const ask = (text) => {
    const g = table.game();
    const view = g?.state;
    if (!g || !view) return null;
    const asked = QUESTIONS.find((q) => t(`ask-${q}`).split('|').some((w) => w.trim() === text));
    if (!asked) return null;
    const name = (/** @type {number} */ seat) => g.seats.find((s) => s.seat === seat)?.user ?? `${seat + 1}`;
    switch (asked) {
      case 'hand':
        return [view.hand.length ? t('answer-hand', { cards: view.hand.map(cardName).join(', ') }) : t('answer-no-hand')];
      case 'rows':
        return view.seats.map((s) => t('answer-rows', {
          name: name(s.seat),
          rows: s.rows.length
            ? s.rows.map((r) => `${t(r.color)} (${t(`direction-${r.direction}`)}): ${r.cards.map((c) => (c.end ? t('end-card') : c.value)).join(' ')}`).join('; ')
            : t('answer-none'),
        }));
      case 'board':
        if (!view.board) return [t('answer-no-board')];
        return view.seats.map((s) => t('answer-pawns', {
          name: name(s.seat),
          pawns: s.pawns.map((p) => `${t(p.big ? 'did-pawn-big' : 'did-pawn')}: ${p.space ? spaceName(p.space) : t('answer-start')}`).join('; '),
        }));
      case 'scores':
        return view.seats.map((s) => t('answer-score', { name: name(s.seat), score: s.score.total }));
      case 'moves': {
        const recent = table.moves(5);
        return recent.length ? recent.map((m) => didSay(name(m.seat), m.decision)) : [t('answer-no-moves')];
      }
      default: {
        const seats = g.clock?.seats ?? [];
        if (!seats.length) return [t('answer-no-clock')];
        return seats.map((c) => t('answer-time', { name: name(c.seat), left: duration(c.remaining_ms) }));
      }
    }
  };

  const send = async () => {
    const text = input.value.trim();
    if (!text) return;
    const question = ask(text.toLowerCase());
    if (question) {
      tell(question);
      input.value = '';
      return;
    }
    const g = table.game();
    if (!g || g.your_seat == null) {
      tell([t('answer-not-seated')]);
      return;
    }
    const planned = PLAN_LINE.exec(text);
    if (planned || t('ask-plan').split('|').some((w) => w.trim() === text.toLowerCase())) {
      tell(await plan(id, g, planned ? planned[1].trim() : null));
      if (planned) input.value = '';
      return;
    }
    try {
      /** @type {Schemas['TypedAnswer']} */
      const played = await call('POST', `/games/${id}/typed-moves`, { expected_version: g.version, text, language: language() });
      input.value = '';
      tell(played.played);
      table.played(played.game);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      /** @type {Schemas['ChoiceInWords'][]} */
      const offered = /** @type {any} */ (e.problem).choices ?? [];
      tell([e.message, ...(offered.length ? [t('answer-choices'), ...offered.map((c) => `${c.number}: ${c.words}`)] : [])]);
    }
  };

  const section = h('section', { id: 'command-line', 'aria-labelledby': 'command-h' }, [
    h('h2', { id: 'command-h' }, [t('command-title')]),
    h('form', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); send().catch((err) => tell([String(err?.message ?? err)])); } }, [
      h('label', { for: 'command' }, [t('command-label')]),
      input,
      choices,
      h('button', { type: 'submit', id: 'command-send' }, [t('command-send')]),
    ]),
    h('p', { class: 'hint', id: 'command-hint' }, [t('command-hint')]),
    answer,
  ]);
  return { section, refresh };
}
