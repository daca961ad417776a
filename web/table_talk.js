// @ts-check
/** Beside a game, for its seated players: the table's chat (the newest messages, new ones as they
 * arrive on the game's stream, read out politely; one line each) and the player's private note,
 * which nobody else ever sees. Names link to profiles, where a player can be blocked. */

import { call, session } from './api.js';
import { h, checkedForm, failed, say } from './dom.js';
import { t } from './i18n.js';
import { playerLink } from './players.js';
import { reportForm } from './moderation.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** The chat and note of game `id`: the section to show, `add` for a message from the stream,
 * `last` for the newest message id shown (where a stream resumes).
 * @param {number} id */
export function tableTalk(id) {
  const me = session()?.name;
  /** @type {Schemas['ChatMessage'][]} */
  let messages = [];
  const list = h('ol', { class: 'chat', id: 'chat', 'aria-live': 'polite', 'aria-labelledby': 'chat-h' });
  const empty = h('p', { class: 'chat-empty', id: 'chat-empty' }, [t('chat-empty')]);
  /** A message; another player's can be reported. @param {Schemas['ChatMessage']} m */
  const line = (m) => {
    const item = h('li', { 'data-id': m.id }, [playerLink(m.user), ': ', h('span', { class: 'chat-text' }, [m.text])]);
    if (m.user !== me) {
      item.append(' ', h('button', { type: 'button', class: 'link report', onclick: () => item.append(' ', reportForm(m.user, m.id)) }, [t('report')]));
    }
    return item;
  };
  /** Tell the server what has been read, when the page is in view. */
  const markRead = () => {
    const newest = messages[messages.length - 1];
    if (newest && document.visibilityState === 'visible') {
      call('PUT', `/games/${id}/chat/read`, { last_read: newest.id }).catch(() => {});
    }
  };
  /** @param {Schemas['ChatMessage']} m */
  const add = (m) => {
    if (messages.some((x) => x.id === m.id)) return;
    messages.push(m);
    empty.hidden = true;
    list.append(line(m));
    list.scrollTop = list.scrollHeight;
    markRead();
  };
  const text = /** @type {HTMLInputElement} */ (h('input', { id: 'chat-text', name: 'chat-text', maxlength: 500, required: true, autocomplete: 'off' }));
  const form = checkedForm('chat-form', [
    h('label', { for: 'chat-text' }, [t('chat-say')]), text,
    h('button', { type: 'submit' }, [t('chat-send')]),
  ], async () => {
    /** @type {Schemas['ChatMessage']} */
    const sent = await call('POST', `/games/${id}/chat`, { text: text.value });
    text.value = '';
    add(sent);
  });
  const note = /** @type {HTMLTextAreaElement} */ (h('textarea', { id: 'note', name: 'note', rows: 3, maxlength: 5000 }));
  const noteForm = checkedForm('note-form', [
    h('label', { for: 'note' }, [t('note-hint')]), note,
    h('button', { type: 'submit' }, [t('note-save')]),
  ], async () => {
    await call('PUT', `/games/${id}/note`, { text: note.value });
    say(t('note-saved'));
  });
  const section = h('div', { class: 'table-talk' }, [
    h('section', { 'aria-labelledby': 'chat-h' }, [h('h2', { id: 'chat-h' }, [t('chat')]), empty, list, form]),
    h('section', { 'aria-labelledby': 'note-h' }, [h('h2', { id: 'note-h' }, [t('note')]), noteForm]),
  ]);
  const load = async () => {
    /** @type {Schemas['ChatPage']} */
    const page = await call('GET', `/games/${id}/chat?limit=100`);
    for (const m of page.messages.reverse()) add(m);
    empty.hidden = messages.length > 0;
    /** @type {Schemas['Note']} */
    const mine = await call('GET', `/games/${id}/note`);
    note.value = mine.text;
  };
  document.addEventListener('visibilitychange', markRead);
  return {
    section,
    load: () => load().catch(failed),
    add,
    last: () => messages[messages.length - 1]?.id ?? 0,
    close: () => document.removeEventListener('visibilitychange', markRead),
  };
}
