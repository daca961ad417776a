// @ts-check
/** The games waiting for you, kept live: the user's stream (`/me/stream`, opened with a ticket)
 * says when the list may have changed; the count goes into the tab's title ("(2) Keltis"), and
 * the screens that show the list (the lobby) are told. */

import { call, session } from './api.js';

/** The notices after which the list is read again. */
const NOTICES = ['your_turn', 'deadline_reminder', 'invitation', 'game_started', 'game_over'];

/** @type {Set<() => void>} */
const listeners = new Set();
/** @type {EventSource | null} */
let stream = null;
let following = false;

/** Call `listener` whenever the list may have changed; returns how to stop. @param {() => void} listener */
export function onChange(listener) {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/** Read the count again, set the title, tell the listeners. */
export async function refresh() {
  if (!session()) {
    document.title = 'Keltis';
    return;
  }
  try {
    /** @type {import('./types/api').components['schemas']['MyGamesPage']} */
    const page = await call('GET', '/me/games?limit=1');
    const n = page.your_turn_count;
    document.title = n > 0 ? `(${n}) Keltis` : 'Keltis';
  } catch {
    // The title keeps its count until the next notice.
  }
  for (const listener of listeners) listener();
}

/** Follow the user's stream (once per sign-in). */
export function follow() {
  if (following) return;
  following = true;
  const open = async () => {
    if (!following) return;
    try {
      const { ticket } = await call('POST', '/stream-tickets', {});
      if (!following) return;
      stream = new EventSource(`/api/v1/me/stream?ticket=${encodeURIComponent(ticket)}`);
      for (const kind of NOTICES) stream.addEventListener(kind, () => { refresh(); });
      stream.onerror = () => {
        stream?.close();
        setTimeout(open, 2000);
      };
    } catch {
      setTimeout(open, 5000);
    }
  };
  refresh();
  open();
}

/** Stop following (signing out). */
export function stop() {
  following = false;
  stream?.close();
  stream = null;
  document.title = 'Keltis';
}
