// @ts-check
/** The game page: the table, the player's hand and the legal decisions the server offers. A card
 * chosen lights the places it can go; a click on one decides. Followed live through the game's
 * event stream; a stale version reloads and says so. */

import { ApiError, call } from './api.js';
import { h, duration, failed, say } from './dom.js';
import { t } from './i18n.js';
import { boardOf, pilesOf, resultOf, seatsOf, turnOf } from './table.js';
import { cardName, cardsOf, describe, sameCard, targetOf } from './words.js';
import { refresh as refreshWaiting } from './waiting.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */
/** @typedef {Schemas['GameDetail']} GameDetail */
/** @typedef {Schemas['Decision']} Decision */
/** @typedef {Schemas['Card']} Card */

/** The event kinds after which the page reloads the game. */
const CHANGES = ['joined', 'left', 'started', 'decided', 'clock_started', 'timed_out', 'seat_taken_over',
  'aborted', 'vacation_started', 'vacation_ended'];

/** Shows game `id` in `main`; returns what to do on leaving the page. @param {HTMLElement} main @param {number} id */
export function showGame(main, id) {
  /** @type {GameDetail | null} */
  let game = null;
  /** @type {Card | null} */
  let chosen = null;
  /** A space several of the chosen card's decisions reach (pawns to choose between). @type {string | null} */
  let picked = null;
  let sending = false;
  let loadedAt = Date.now();
  const body = h('div', { class: 'game' });
  main.replaceChildren(body);
  /** Where the next game waiting for the player is offered, once this one waits for others. */
  const next = h('p', { class: 'next-game', id: 'next-game' });

  /** Offer the next game waiting for the player, when this one does not. */
  const offerNext = async () => {
    const g = game;
    if (!g || g.your_seat == null || (g.state?.to_act === g.your_seat && g.status === 'active')) {
      next.replaceChildren();
      return;
    }
    try {
      /** @type {Schemas['MyGamesPage']} */
      const page = await call('GET', '/me/games?limit=2');
      const other = page.games.find((m) => m.your_turn && m.id !== id);
      next.replaceChildren(...(other
        ? [h('a', { href: `/games/${other.id}`, class: 'button' }, [t('next-game', { id: other.id })])]
        : []));
    } catch {
      next.replaceChildren();
    }
  };

  const load = async () => {
    game = await call('GET', `/games/${id}`);
    loadedAt = Date.now();
    draw();
    offerNext();
  };

  /** @param {Decision} decision */
  const decide = async (decision) => {
    if (sending || !game) return;
    sending = true;
    try {
      game = await call('POST', `/games/${id}/decisions`, { expected_version: game.version, decision });
      loadedAt = Date.now();
      chosen = null;
      picked = null;
      say('');
    } catch (e) {
      if (e instanceof ApiError && e.code === 'stale_version') {
        chosen = null;
        picked = null;
        game = await call('GET', `/games/${id}`);
        say(t('stale'));
      } else {
        failed(e);
      }
    } finally {
      sending = false;
      draw();
      offerNext();
      refreshWaiting();
    }
  };

  const draw = () => {
    if (!game) return;
    const g = game;
    const view = g.state;
    /** @param {number} seat */
    const names = (seat) => g.seats.find((s) => s.seat === seat)?.user ?? `#${seat}`;
    const header = h('h1', {}, [`#${g.id} ${g.variant}`]);
    if (!view) {
      body.replaceChildren(header, h('p', { id: 'turn' }, [t(`status-${g.status}`)]),
        h('ul', { class: 'waiting' }, g.seats.map((s) => h('li', {}, [s.user]))),
        ...(g.status === 'open' && g.your_seat != null ? [inviteForm(id)] : []));
      return;
    }
    const legal = view.legal_decisions;
    const playable = (/** @type {Card} */ c) => legal.some((d) => cardsOf(d).some((x) => sameCard(x, c)));
    const hand = h('div', { class: 'hand', role: 'group', 'aria-label': t('hand') },
      view.hand.map((c, i) => {
        const can = playable(c);
        return h('button', {
          type: 'button', class: `card c-${c.color}${sameCard(chosen, c) ? ' chosen' : ''}`,
          'aria-label': cardName(c), 'aria-pressed': sameCard(chosen, c) ? 'true' : 'false',
          disabled: !can, 'data-playable': can ? 'true' : false, 'data-index': i,
          onclick: () => { chosen = sameCard(chosen, c) ? null : c; picked = null; draw(); },
        }, [c.end ? '★' : String(c.value)]);
      }));
    // The chosen card's decisions, and those that need no card (draws, free steps, tiles, passes).
    const forCard = chosen ? legal.filter((d) => cardsOf(d).some((x) => sameCard(x, chosen))) : [];
    const without = legal.filter((d) => cardsOf(d).length === 0);
    const offered = [...forCard, ...without];
    const shown = picked ? offered.filter((d) => targetOf(d) === picked) : offered;
    const actions = h('div', { class: 'actions', role: 'group', 'aria-label': t('choose') },
      shown.map((d, i) => h('button', {
        type: 'button', 'data-decision': d.type, 'data-offer': i, 'data-to': targetOf(d) ?? false,
        onclick: () => decide(d),
      }, [describe(d)])));
    /** @type {Map<string, Decision[]>} */
    const targets = new Map();
    for (const d of offered) {
      const to = targetOf(d);
      if (to) targets.set(to, [...(targets.get(to) ?? []), d]);
    }
    /** @param {string} space */
    const onPick = (space) => {
      const choices = targets.get(space) ?? [];
      if (choices.length === 1) decide(choices[0]);
      else if (choices.length > 1) {
        // Several pawns can reach this space: only its decisions stay, the first one focused.
        picked = space;
        draw();
        say(t('which-pawn'));
        /** @type {HTMLElement | null} */ (body.querySelector('.actions button'))?.focus();
      }
    };
    const resign = view.to_act != null && g.your_seat != null
      ? h('button', { type: 'button', class: 'resign', onclick: () => { if (confirm(t('confirm-resign'))) call('POST', `/games/${id}/resign`, {}).then(load, failed); } }, [t('resign')])
      : '';
    const over = g.status === 'over' || g.status === 'aborted';
    body.replaceChildren(
      header,
      h('p', { class: 'turn', id: 'turn' }, [turnOf(view, g.your_seat ?? null, names)]),
      deadlineOf(g),
      resultOf(view, names),
      over ? h('p', {}, [h('a', { href: `/records/${id}`, id: 'replay-link' }, [t('replay')])]) : '',
      next,
      h('div', { class: view.board ? 'table-layout' : '' }, [
        ...(view.board ? [boardOf(view, { names, targets, onPick })] : []),
        h('div', { class: 'side' }, [
          h('p', {}, [t('draw-pile', { n: view.draw_pile_size })]),
          pilesOf(view),
          ...(g.your_seat != null ? [h('h2', {}, [t('hand')]), hand] : []),
          legal.length ? h('p', {}, [chosen || without.length ? t('choose') : t('choose-card')]) : '',
          actions,
        ]),
      ]),
      seatsOf(view, { names, clock: g.clock }),
      resign,
    );
  };

  /** The deadline of the seat to act, when a clock runs. @param {GameDetail} g */
  const deadlineOf = (g) => {
    const deadline = g.clock?.deadline;
    if (deadline == null) return '';
    return h('p', { class: 'deadline', id: 'deadline' }, [
      t('deadline', { when: new Date(deadline).toLocaleString(document.documentElement.lang), left: duration(deadline - Date.now()) }),
    ]);
  };

  // The running clock counts down on the page between loads.
  const ticker = window.setInterval(() => {
    for (const cell of body.querySelectorAll('td.clock[data-running="true"]')) {
      const left = Number(/** @type {HTMLElement} */ (cell).dataset.remaining) - (Date.now() - loadedAt);
      cell.textContent = duration(left);
    }
  }, 1000);

  // Live: the game's event stream (a ticket opens it; a new ticket after each break).
  /** @type {EventSource | null} */
  let stream = null;
  let closed = false;
  const follow = async () => {
    if (closed) return;
    try {
      const { ticket } = await call('POST', '/stream-tickets', { game_id: id });
      if (closed) return;
      stream = new EventSource(`/api/v1/games/${id}/stream?ticket=${encodeURIComponent(ticket)}&after=${game?.version ?? 0}`);
      let timer = 0;
      const changed = () => {
        clearTimeout(timer);
        timer = window.setTimeout(() => { if (!sending) load().catch(failed); }, 100);
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
  load().then(follow, failed);
  return () => {
    closed = true;
    clearInterval(ticker);
    stream?.close();
  };
}

/** Inviting a user by name, while the game waits for players. @param {number} id */
function inviteForm(id) {
  const user = h('input', { id: 'invite-user', name: 'user', autocomplete: 'off', required: true, minlength: 3, maxlength: 32 });
  return h('form', { class: 'invite', onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    const name = /** @type {HTMLInputElement} */ (user).value;
    try {
      await call('POST', `/games/${id}/invites`, { user: name });
      say(t('invited', { name }));
      /** @type {HTMLInputElement} */ (user).value = '';
    } catch (err) {
      failed(err);
    }
  } }, [h('label', { for: 'invite-user' }, [t('invite')]), user, h('button', { type: 'submit' }, [t('invite')])]);
}
