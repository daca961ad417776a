// @ts-check
/** Events (tournaments): `/events` lists those taking entries, running and finished, with a form
 * to make one; `/events/<id>` shows one: enter or withdraw, your game in the round, the
 * standings, the crosstable and each round's games, kept live. */

import { call, session } from './api.js';
import { h, checkedForm, failed, go, say } from './dom.js';
import { t } from './i18n.js';
import { onChange } from './waiting.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** @param {number} ms */
const when = (ms) => new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'short' });

/** Whether entries open later (by this device's clock; the server decides). @param {Schemas['EventSummary']} e */
const notYetOpen = (e) => e.state === 'registering' && e.registration_opens_at != null && e.registration_opens_at > Date.now();

/** An event in one line. @param {Schemas['EventSummary']} e */
function summary(e) {
  const start = e.state === 'registering'
    ? (e.starts_at != null ? t('event-starts', { when: when(e.starts_at) }) : t('event-when-full'))
    : e.state === 'running' ? t('event-round-of', { round: e.current_round, rounds: e.rounds }) : t(`event-state-${e.state}`);
  const opens = notYetOpen(e) ? [t('event-opens', { when: when(/** @type {number} */ (e.registration_opens_at)) })] : [];
  return [t(`event-${e.format}`), t(`variant-${e.variant}`), t('event-table', { size: e.table_size }),
    t('event-entered-count', { count: e.entries, max: e.max_players }), start, ...opens].join(' · ');
}

/** The events page; how to leave it. @param {HTMLElement} main */
export function showEvents(main) {
  let live = true;
  const lists = h('div', { id: 'event-lists' });
  /** @param {string} state @param {Schemas['EventSummary'][]} events */
  const section = (state, events) => h('section', { id: `events-${state}` }, [
    h('h2', {}, [t(`events-${state}`)]),
    events.length
      ? h('ul', {}, events.map((e) => h('li', {}, [h('a', { href: `/events/${e.id}` }, [e.name]), ' ', h('span', {}, [summary(e)])])))
      : h('p', {}, [t('events-none')]),
  ]);
  const load = async () => {
    try {
      const states = ['registering', 'running', 'finished'];
      const found = await Promise.all(states.map((s) => call('GET', `/events?state=${s}`)));
      if (live) lists.replaceChildren(...states.map((s, i) => section(s, found[i])));
    } catch (e) {
      failed(e);
    }
  };
  const ladders = h('p', { id: 'ladder-links' }, [t('ladders'), ': ',
    ...['keltis', 'neue-wege', 'keltis-card'].flatMap((v) => [h('a', { href: `/ladders/${v}` }, [t(`variant-${v}`)]), ' '])]);
  main.replaceChildren(h('h1', {}, [t('events')]), ladders, lists, makeForm());
  load();
  const stop = onChange(() => { load(); });
  return () => { live = false; stop(); };
}

/** The form that makes an event. */
function makeForm() {
  const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {HTMLElement} */ input) =>
    h('div', { class: 'field' }, [h('label', { for: id }, [label]), input]);
  const name = /** @type {HTMLInputElement} */ (h('input', { id: 'ev-name', required: true, minlength: 3, maxlength: 80 }));
  const format = /** @type {HTMLSelectElement} */ (h('select', { id: 'ev-format' },
    ['swiss', 'round_robin'].map((f) => h('option', { value: f }, [t(`event-${f}`)]))));
  const variant = /** @type {HTMLSelectElement} */ (h('select', { id: 'ev-variant' },
    ['keltis', 'neue-wege', 'keltis-card'].map((v) => h('option', { value: v }, [t(`variant-${v}`)]))));
  const size = /** @type {HTMLSelectElement} */ (h('select', { id: 'ev-size' },
    [2, 3, 4].map((n) => h('option', { value: String(n) }, [String(n)]))));
  const rounds = /** @type {HTMLInputElement} */ (h('input', { id: 'ev-rounds', type: 'number', min: 1, max: 20, value: '3' }));
  const most = /** @type {HTMLInputElement} */ (h('input', { id: 'ev-max', type: 'number', min: 2, max: 256, value: '8' }));
  const start = /** @type {HTMLInputElement} */ (h('input', { id: 'ev-start', type: 'datetime-local' }));
  const opens = /** @type {HTMLInputElement} */ (h('input', { id: 'ev-opens', type: 'datetime-local' }));
  const send = async () => {
    /** @type {Schemas['NewEvent']} */
    const body = {
      name: name.value.trim(),
      format: /** @type {Schemas['EventFormat']} */ (format.value),
      variant: /** @type {Schemas['Variant']} */ (variant.value),
      table_size: Number(size.value),
      max_players: Number(most.value),
      min_players: Math.min(Number(size.value) * 2, Number(most.value)),
    };
    if (format.value === 'swiss') body.rounds = Number(rounds.value);
    if (start.value) body.starts_at = new Date(start.value).getTime();
    if (opens.value) body.registration_opens_at = new Date(opens.value).getTime();
    /** @type {Schemas['EventDetail']} */
    const made = await call('POST', '/events', body);
    go(`/events/${made.event.id}`);
  };
  return checkedForm('make-event', [
    h('h2', {}, [t('event-make')]),
    field('ev-name', t('event-name'), name),
    field('ev-format', t('event-format'), format),
    field('ev-variant', t('variant'), variant),
    field('ev-size', t('event-table-size'), size),
    field('ev-rounds', t('event-rounds'), rounds),
    field('ev-max', t('event-max-players'), most),
    field('ev-start', t('event-start'), start),
    h('p', { class: 'hint' }, [t('event-start-hint')]),
    field('ev-opens', t('event-opens-at'), opens),
    h('p', { class: 'hint' }, [t('event-opens-hint')]),
    h('button', { type: 'submit', id: 'ev-create' }, [t('event-create')]),
  ], send);
}

/** A tie-break's value in words. @param {Schemas['TieBreakView']} b */
const tieBreak = (b) => `${t(`tb-${b.name}`)} ${b.points ?? (b.placings ?? []).join('-')}`;

/** One event's page; how to leave it. @param {HTMLElement} main @param {number} id */
export function showEvent(main, id) {
  const me = session()?.name ?? '';
  let live = true;
  /** @param {Schemas['EventDetail']} d */
  const draw = (d) => {
    if (!live) return;
    const e = d.event;
    const mine = d.entries.find((x) => x.name === me);
    const open = e.state === 'registering'
      || (e.state === 'running' && e.format === 'swiss' && e.current_round < e.late_entry_until_round);
    /** @param {'POST' | 'DELETE'} method @param {string} path @param {string} done */
    const act = (method, path, done) => call(method, path, method === 'POST' ? {} : undefined)
      .then((/** @type {Schemas['EventDetail']} */ next) => { say(done); draw(next); }, failed);
    const actions = [];
    if (!mine && open && notYetOpen(e)) {
      actions.push(h('p', { id: 'event-opens' }, [t('event-opens', { when: when(/** @type {number} */ (e.registration_opens_at)) })]));
    } else if (!mine && open) {
      actions.push(h('button', { type: 'button', id: 'event-enter', onclick: () => act('POST', `/events/${id}/entries`, t('event-entered')) }, [t('event-enter')]));
    }
    if (mine && !mine.withdrawn && (e.state === 'registering' || e.state === 'running')) {
      actions.push(h('button', { type: 'button', id: 'event-withdraw', onclick: () => {
        if (confirm(t('event-withdraw-confirm'))) act('DELETE', `/events/${id}/entries/${encodeURIComponent(me)}`, t('event-withdrawn'));
      } }, [t('event-withdraw')]));
    }
    const round = d.rounds.find((r) => r.round === e.current_round);
    const myGame = round?.games.find((g) => g.players.includes(me) && g.status === 'active');
    main.replaceChildren(
      h('h1', {}, [e.name]),
      h('p', { id: 'event-summary' }, [summary(e)]),
      ...(myGame ? [h('p', { id: 'event-your-game' }, [h('a', { href: `/games/${myGame.game_id}` }, [t('event-your-game', { round: e.current_round })])])] : []),
      h('div', { class: 'actions' }, actions),
      h('h2', {}, [t('event-standings')]),
      standingsTable(d),
      h('h2', {}, [t('event-crosstable')]),
      crosstable(d),
      h('h2', {}, [t('event-rounds-heading')]),
      ...d.rounds.slice().reverse().map((r) => h('section', { class: 'event-round' }, [
        h('h3', {}, [t('event-round', { round: r.round })]),
        h('ul', {}, [
          ...r.games.map((g) => h('li', {}, [h('a', { href: `/games/${g.game_id}` }, [g.players.join(' – ')]),
            ' ', g.places ? `(${g.places.join('-')})` : t(`event-game-${g.status === 'active' ? 'playing' : 'over'}`)])),
          ...r.byes.map((b) => h('li', {}, [t('event-bye-of', { name: b.name, points: b.points })])),
        ]),
      ])),
    );
  };
  const load = () => call('GET', `/events/${id}`).then(draw, failed);
  load();
  // Your games' ends and the event's news arrive on your stream; others' games by a slow poll.
  const stop = onChange(() => { load(); });
  const poll = setInterval(load, 15_000);
  return () => { live = false; stop(); clearInterval(poll); };
}

/** @param {Schemas['EventDetail']} d */
function standingsTable(d) {
  return h('table', { id: 'standings' }, [
    h('thead', {}, [h('tr', {}, [t('event-place'), t('event-player'), t('event-points'), t('event-tie-breaks')].map((c) => h('th', {}, [c])))]),
    h('tbody', {}, d.standings.map((s) => h('tr', { class: s.withdrawn ? 'withdrawn' : '' }, [
      h('td', {}, [String(s.place)]),
      h('td', {}, [h('a', { href: `/players/${encodeURIComponent(s.name)}` }, [s.name]), s.withdrawn ? ` (${t('event-withdrawn-mark')})` : '']),
      h('td', {}, [String(s.points)]),
      h('td', {}, [s.tie_breaks.map(tieBreak).join(' · ')]),
    ]))),
  ]);
}

/** @param {Schemas['EventDetail']} d */
function crosstable(d) {
  const rounds = Array.from({ length: d.event.current_round }, (_, i) => i + 1);
  /** @param {Schemas['CrossCell'][]} cells */
  const cell = (cells) => cells.map((c) => c.bye
    ? t('event-bye-short', { points: c.points ?? 0 })
    : `${c.opponents.join(', ')} ${c.place != null ? `#${c.place}` : '…'}`).join(' / ');
  return h('table', { id: 'crosstable' }, [
    h('thead', {}, [h('tr', {}, [h('th', {}, [t('event-player')]), ...rounds.map((r) => h('th', {}, [String(r)]))])]),
    h('tbody', {}, d.crosstable.map((row) => h('tr', {}, [
      h('td', {}, [row.name]),
      ...rounds.map((r) => h('td', {}, [cell(row.rounds.filter((c) => c.round === r))])),
    ]))),
  ]);
}
