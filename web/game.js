// @ts-check
/** The game page: the table, the player's hand and the legal decisions the server offers. A card
 * chosen lights the places it can go; a click on one decides. Followed live through the game's
 * event stream; a stale version reloads and says so. After each redraw the focus is back on the
 * equivalent control (the same card, space or decision, else the first choice left), so that
 * keyboards and screen readers keep their place. On a phone the hand and the choices stay docked
 * at the bottom of the screen. */

import { ApiError, call, session } from './api.js';
import { h, duration, failed, say } from './dom.js';
import { t } from './i18n.js';
import { boardOf, pilesOf, resultOf, seatsOf, turnOf } from './table.js';
import { cardName, cardsOf, describe, didSay, sameCard, targetOf } from './words.js';
import { moveLog } from './move_log.js';
import { refresh as refreshWaiting } from './waiting.js';
import { confirmMoves } from './settings.js';
import { tableTalk } from './table_talk.js';
import { commandLine } from './command_line.js';
import { planPanel } from './plan_panel.js';
import { followGame } from './live_game.js';
import { rematchPanel } from './rematch.js';
import { shareLink } from './challenge.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */
/** @typedef {Schemas['GameDetail']} GameDetail */
/** @typedef {Schemas['Decision']} Decision */
/** @typedef {Schemas['Card']} Card */

/** A seat's player. @param {GameDetail} g @param {number} seat */
function nameOf(g, seat) {
  return g.seats.find((s) => s.seat === seat)?.user ?? `#${seat}`;
}

/** Shows game `id` in `main`; returns what to do on leaving the page. @param {HTMLElement} main @param {number} id */
export function showGame(main, id) {
  /** @type {GameDetail | null} */
  let game = null;
  /** @type {Card | null} */
  let chosen = null;
  /** A space several of the chosen card's decisions reach (pawns to choose between). @type {string | null} */
  let picked = null;
  let sending = false;
  /** A change the stream told of while a decision was being sent: loaded once it is sent (the
   * decision's answer may predate it, as when a bot answers at once). */
  let missed = false;
  /** The decision a first tap armed, when moves are confirmed by a second tap. @type {string | null} */
  let armed = null;
  let loadedAt = Date.now();
  /** The rematch, once the game is over (made once, kept live). @type {{panel: HTMLElement, stop: () => void} | null} */
  let rematch = null;
  const body = h('div', { class: 'game' });
  /** Where the other players' moves are read out as they arrive. */
  const announce = h('p', { class: 'sr-only', 'aria-live': 'polite', id: 'announce' });
  // The chat and note sit below the game, outside what each load redraws (so typing goes on).
  const talk = tableTalk(id);
  const talkPlace = h('div');
  // The command line too: typing a move or a question goes on across loads.
  const command = commandLine(id, {
    game: () => game,
    played: (fresh) => {
      keep(fresh);
      loadLog().catch(() => {});
      draw();
      offerNext();
    },
    moves: (n) => log.recent(n),
  });
  const commandPlace = h('div');
  // "Plan my next turn", while the others move.
  const planning = planPanel(id);
  main.replaceChildren(body, commandPlace, planning.section, talkPlace, announce);
  // The page's first link: the same game as text, for screen readers and keyboards.
  const first = /** @type {HTMLAnchorElement | null} */ (document.getElementById('first-link'));
  if (first) {
    first.href = `/games/${id}/text`;
    first.textContent = t('text-table-link');
    first.hidden = false;
  }
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

  /** The game's moves (the move log). */
  const log = moveLog(id, (path) => call('GET', path));
  /** Reads the new moves; the other players' are announced (politely). */
  const loadLog = async () => {
    const g = game;
    if (!g || !g.state) return;
    const fresh = (await log.read()).filter((m) => m.seat !== g.your_seat);
    if (fresh.length) announce.textContent = fresh.map((m) => didSay(nameOf(g, m.seat), m.decision)).join('. ');
  };

  /** Keeps `fresh` unless the page already holds a later version (answers may cross). @param {GameDetail} fresh */
  const keep = (fresh) => {
    if (!game || fresh.version >= game.version) {
      game = fresh;
      loadedAt = Date.now();
    }
  };

  const load = async () => {
    keep(await call('GET', `/games/${id}`));
    await loadLog().catch(() => {});
    draw();
    offerNext();
  };

  /** @param {Decision} decision */
  const decide = async (decision) => {
    if (sending || !game) return;
    // "Tap again to confirm": the first tap arms the decision, a second one on it decides.
    const key = JSON.stringify(decision);
    if (confirmMoves() && armed !== key) {
      armed = key;
      draw();
      say(t('tap-again'));
      return;
    }
    armed = null;
    sending = true;
    try {
      keep(await call('POST', `/games/${id}/decisions`, { expected_version: game.version, decision }));
      await loadLog().catch(() => {});
      chosen = null;
      picked = null;
      say('');
    } catch (e) {
      if (e instanceof ApiError && e.code === 'stale_version') {
        chosen = null;
        picked = null;
        keep(await call('GET', `/games/${id}`));
        say(t('stale'));
      } else {
        failed(e);
      }
    } finally {
      sending = false;
      draw();
      offerNext();
      refreshWaiting();
      if (missed) {
        missed = false;
        load().catch(failed);
      }
    }
  };

  const draw = () => {
    if (!game) return;
    const g = game;
    const view = g.state;
    /** @param {number} seat */
    const names = (seat) => nameOf(g, seat);
    const header = h('h1', { tabindex: '-1' }, [t('game-title', {
      variant: t(`variant-${g.variant}`), players: g.seats.map((s) => s.user).join(', '),
    })]);
    const focus = focusKey(body);
    if (!view) {
      body.replaceChildren(header, h('p', { id: 'turn' }, [t(`status-${g.status}`)]),
        h('ul', { class: 'waiting' }, g.seats.map((s) => h('li', {}, [s.user]))),
        ...(g.status === 'open' && g.your_seat != null ? [inviteForm(id), shareLink(id)] : []));
      restoreFocus(body, focus);
      return;
    }
    const legal = view.legal_decisions;
    const mine = view.seats.find((s) => s.seat === g.your_seat);
    /** Where the player's pawn stands, to name it. @param {number} pawn */
    const place = (pawn) => mine?.pawns.find((p) => p.pawn === pawn)?.space ?? null;
    const playable = (/** @type {Card} */ c) => legal.some((d) => cardsOf(d).some((x) => sameCard(x, c)));
    const hand = h('div', { class: 'hand', role: 'group', 'aria-label': t('hand') },
      view.hand.map((c, i) => {
        const can = playable(c);
        // A card that cannot be played now stays focusable and says why when chosen.
        return h('button', {
          type: 'button', class: `card c-${c.color}${sameCard(chosen, c) ? ' chosen' : ''}${can ? '' : ' unplayable'}`,
          'aria-label': cardName(c), 'aria-pressed': sameCard(chosen, c) ? 'true' : 'false',
          'aria-disabled': can ? false : 'true', 'data-playable': can ? 'true' : false, 'data-index': i,
          onclick: () => {
            if (!can) {
              say(whyNot(view, g.your_seat ?? null));
              return;
            }
            chosen = sameCard(chosen, c) ? null : c;
            picked = null;
            armed = null;
            draw();
            // Once the board is drawn again (a moment later), its lit spaces above the dock.
            if (chosen) setTimeout(() => revealAboveDock(body, 'svg g.target'), 0);
          },
        }, [c.end ? '★' : String(c.value)]);
      }));
    // The chosen card's decisions, and those that need no card (draws, free steps, tiles, passes).
    const forCard = chosen ? legal.filter((d) => cardsOf(d).some((x) => sameCard(x, chosen))) : [];
    const without = legal.filter((d) => cardsOf(d).length === 0);
    const offered = [...forCard, ...without];
    const shown = picked ? offered.filter((d) => targetOf(d) === picked) : offered;
    // A chosen card that can only be discarded: why it cannot be laid.
    const why = chosen && !chosen.end && forCard.length && !forCard.some((d) => d.type === 'lay')
      ? h('p', { class: 'why', id: 'why' }, [whyNoLay(view, mine, chosen)]) : '';
    const actions = h('div', { class: 'actions', role: 'group', 'aria-label': t('choose') },
      shown.map((d, i) => {
        const ready = armed === JSON.stringify(d);
        return h('button', {
          type: 'button', 'data-decision': d.type, 'data-offer': i, 'data-to': targetOf(d) ?? false,
          class: ready ? 'armed' : false, onclick: () => decide(d),
        }, [ready ? t('confirm-move', { move: describe(d, place) }) : describe(d, place)]);
      }));
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
    // The move log, and on the board the spaces the others' moves since the player's last turn
    // went to.
    const { section: logSection, marked } = log.render(body, g.your_seat ?? null, names);
    const resign = view.to_act != null && g.your_seat != null
      ? h('button', { type: 'button', class: 'resign', onclick: () => { if (confirm(t('confirm-resign'))) call('POST', `/games/${id}/resign`, {}).then(load, failed); } }, [t('resign')])
      : '';
    const over = g.status === 'over' || g.status === 'aborted';
    if (over && g.your_seat != null) rematch ??= rematchPanel(id, session()?.name ?? '');
    body.replaceChildren(
      header,
      h('p', { class: 'turn', id: 'turn' }, [turnOf(view, g.your_seat ?? null, names)]),
      deadlineOf(g),
      resultOf(view, names),
      over ? h('p', {}, [h('a', { href: `/records/${id}`, id: 'replay-link' }, [t('replay')])]) : '',
      rematch?.panel ?? '',
      next,
      h('p', { class: 'help-link' }, [h('a', { href: `/help/${g.variant}` }, [t('help-title', { variant: t(`variant-${g.variant}`) })])]),
      h('div', { class: view.board ? 'table-layout' : '' }, [
        ...(view.board ? [boardOf(view, { names, targets, onPick, marked })] : []),
        h('div', { class: 'side' }, [
          pilesOf(view),
          // The player's hand and choices: docked at the bottom on a phone, with the draw pile.
          // Not on a finished game: a dock with nothing to play left a blank band on a phone.
          h('div', { class: g.your_seat != null && !over ? 'dock' : '', id: 'dock' }, [
            h('p', { class: 'draw-pile', id: 'draw-pile' }, [t('draw-pile', { n: view.draw_pile_size })]),
            ...(g.your_seat != null ? [h('h2', {}, [t('hand')]), hand] : []),
            legal.length ? h('p', { class: 'prompt' }, [chosen || without.length ? t('choose') : t('choose-card')]) : '',
            why,
            actions,
          ]),
        ]),
      ]),
      h('div', { class: 'seats-wrap' }, [seatsOf(view, { names, clock: g.clock })]),
      logSection,
      resign,
    );
    restoreFocus(body, focus);
    if (!commandPlace.firstChild) commandPlace.replaceChildren(command.section);
    // The command line plays moves: offered while the game runs only.
    commandPlace.hidden = over;
    command.refresh().catch(() => {});
    planning.refresh(g).catch(() => {});
    // A log entry that kept the focus shows its space again once the board is drawn anew.
    setTimeout(() => {
      const entry = /** @type {HTMLElement | null} */ (document.activeElement?.closest('#log li[data-to]') ?? null);
      if (entry && body.contains(entry)) body.querySelector(`svg g[data-id="${entry.dataset.to}"]`)?.classList.add('shown');
    }, 0);
    // A draw from the discard piles offered: on a phone, the piles above the dock.
    if (legal.some((d) => d.type === 'draw_pile')) setTimeout(() => revealAboveDock(body, '.piles'), 0);
    // The newest entries in view (or the entry the keyboard stepped to).
    const list = body.querySelector('#log');
    if (list && !list.contains(document.activeElement)) list.scrollTop = list.scrollHeight;
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

  /** Stops following the game live (once it is followed). */
  let unfollow = () => {};
  // Live: the game's events, and the table's chat for its players.
  const follow = () => {
    unfollow = followGame(id, {
      after: () => game?.version ?? 0,
      extra: () => (game?.your_seat != null ? `&chat=true&chat_after=${talk.last()}` : ''),
      listen: (stream) => stream.addEventListener('chat', (e) => talk.add(JSON.parse(/** @type {MessageEvent} */ (e).data))),
      changed: () => {
        if (sending) missed = true;
        else load().catch(failed);
      },
    });
  };
  load().then(async () => {
    if (game?.your_seat != null) {
      talkPlace.replaceChildren(talk.section);
      await talk.load();
    }
  }).then(follow, failed);
  return () => {
    if (first) first.hidden = true;
    unfollow();
    talk.close();
    rematch?.stop();
    clearInterval(ticker);
  };
}

/** Why no card can be played now. @param {Schemas['View']} view @param {number | null} me */
function whyNot(view, me) {
  if (view.to_act !== me) return t('why-wait');
  if (view.legal_decisions.some((d) => d.type === 'draw_deck' || d.type === 'draw_pile')) return t('why-draw');
  return t('why-finish');
}

/** Why a card can only be discarded: its row's direction, else no pawn can go for it.
 * @param {Schemas['View']} view @param {Schemas['SeatView'] | undefined} mine @param {Card} card */
function whyNoLay(view, mine, card) {
  const row = mine?.rows.find((r) => r.color === card.color);
  const last = row?.cards[row.cards.length - 1]?.value;
  const color = t(card.color);
  if (row && last != null && card.value != null) {
    if (row.direction === 'ascending' && card.value < last) return t('why-rising', { color, last });
    if (row.direction === 'descending' && card.value > last) return t('why-falling', { color, last });
  }
  if (row?.cards.some((c) => c.end)) return t('why-closed', { color });
  return view.board ? t('why-no-space', { color }) : t('why-no-lay', { color });
}

/** What has the focus in `body`, as a selector that finds its equivalent after a redraw; `null`
 * when the focus is elsewhere on the page (then a redraw leaves it alone).
 * @param {HTMLElement} body @returns {string | null} */
function focusKey(body) {
  const active = document.activeElement;
  if (!active || active === document.body) return '';
  if (!body.contains(active)) return null;
  const e = /** @type {HTMLElement} */ (active);
  if (e.dataset.index != null) return `button.card[data-index="${e.dataset.index}"]`;
  if (e.dataset.space != null) return `[data-space="${e.dataset.space}"]`;
  if (e.dataset.seq != null) return `#log li[data-seq="${e.dataset.seq}"]`;
  // A decision made, the choices are new: the first of them.
  if (e.dataset.offer != null) return '';
  if (e.id) return `#${e.id}`;
  return '';
}

/** Focus the equivalent of what had it (see `focusKey`), else the first choice offered, else the
 * heading. (The board is drawn a moment after the rest: a space that had the focus gives it to
 * the first choice.) @param {HTMLElement} body @param {string | null} key */
function restoreFocus(body, key) {
  if (key == null) return;
  // A control that is now disabled (a card, once the turn has passed) cannot hold the focus.
  const usable = (/** @type {Element | null} */ e) => (e && !e.matches(':disabled') ? e : null);
  const target = /** @type {HTMLElement | null} */ ((key && usable(body.querySelector(key)))
    || body.querySelector('.actions button.armed')
    || body.querySelector('.actions button:not(:disabled), button.card[data-playable="true"]')
    || body.querySelector('h1'));
  target?.focus({ preventScroll: true });
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

/** On a phone (the dock fixed at the bottom), scrolls what `selector` finds in `body` (the chosen
 * card's lit spaces, the discard piles while they may be drawn from) into the part of the screen
 * above the dock. @param {HTMLElement} body @param {string} selector */
function revealAboveDock(body, selector) {
  const dock = body.querySelector('.dock');
  const shown = [...body.querySelectorAll(selector)];
  if (!dock || !shown.length || getComputedStyle(dock).position !== 'fixed') return;
  const top = Math.min(...shown.map((s) => s.getBoundingClientRect().top));
  const bottom = Math.max(...shown.map((s) => s.getBoundingClientRect().bottom));
  const room = dock.getBoundingClientRect().top;
  // The lowest just above the dock, unless that would push the highest off the top.
  const by = bottom > room - 8 ? Math.min(bottom - room + 8, top - 8) : top < 0 ? top - 8 : 0;
  if (by) window.scrollBy({ top: by, behavior: 'instant' });
}
