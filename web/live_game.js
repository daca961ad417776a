// @ts-check
/** Following a game live: its event stream (a ticket opens it; a new ticket after each break),
 * shared by the table and the text-first table. */

import { call } from './api.js';

/** The event kinds after which a page reloads the game. */
const CHANGES = ['joined', 'left', 'started', 'decided', 'clock_started', 'timed_out', 'seat_taken_over',
  'aborted', 'vacation_started', 'vacation_ended'];

/**
 * Follow game `id`: `changed` runs (once for a burst) after each change; `extra` adds to the
 * stream's query and `listen` to its listeners (the table's chat). Returns how to stop.
 * @param {number} id
 * @param {{ after: () => number, changed: () => void, extra?: () => string,
 *   listen?: (stream: EventSource) => void }} opts
 */
export function followGame(id, opts) {
  /** @type {EventSource | null} */
  let stream = null;
  let closed = false;
  const follow = async () => {
    if (closed) return;
    try {
      const { ticket } = await call('POST', '/stream-tickets', { game_id: id });
      if (closed) return;
      stream = new EventSource(`/api/v1/games/${id}/stream?ticket=${encodeURIComponent(ticket)}&after=${opts.after()}${opts.extra?.() ?? ''}`);
      opts.listen?.(stream);
      let timer = 0;
      const changed = () => {
        clearTimeout(timer);
        timer = window.setTimeout(opts.changed, 100);
      };
      for (const kind of CHANGES) stream.addEventListener(kind, changed);
      stream.onerror = () => {
        stream?.close();
        setTimeout(follow, 2000);
      };
    } catch {
      setTimeout(follow, 5000);
    }
  };
  follow();
  return () => {
    closed = true;
    stream?.close();
  };
}
