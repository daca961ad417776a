// @ts-check
/** The lobby: Play now (pairing), a new game (variant, players, a bot, time control, invitation only, rated), the
 * player's games (the ones waiting for them first, with the time left, kept live) and the open
 * games to join. */

import { call, session } from './api.js';
import { h, duration, failed, go } from './dom.js';
import { t } from './i18n.js';
import { onChange } from './waiting.js';
import { pushButton } from './notify.js';
import { playNow, TIME_CONTROLS } from './play_now.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** A game in a list, with what the caller can do; its status last unless the item says it
 * already. @param {Schemas['GameSummary']} g @param {boolean} joinable @param {boolean} [status] */
function gameItem(g, joinable, status = true) {
  const who = g.seats.map((s) => s.user).join(', ');
  const label = `#${g.id} ${t(`variant-${g.variant}`)} · ${who}${status ? ` · ${t(`status-${g.status}`)}` : ''}`;
  const finished = g.status === 'over' || g.status === 'aborted';
  const join = async () => {
    try {
      await call('POST', `/games/${g.id}/join`, {});
      go(`/games/${g.id}`);
    } catch (e) {
      failed(e);
    }
  };
  return h('li', {}, [
    h('a', { href: `/games/${g.id}` }, [label]),
    ...(joinable ? [' ', h('button', { type: 'button', onclick: join }, [t('join')])] : []),
    ...(finished ? [' ', h('a', { href: `/records/${g.id}` }, [t('replay')])] : []),
  ]);
}

/** One of the player's games: where it stands for them, and the time left to the seat to act.
 * @param {Schemas['MyGame']} g */
function myGameItem(g) {
  // Where the game stands for the player leads the item: the status is not said twice.
  const item = gameItem(g, g.shelf === 'invited', false);
  const names = (/** @type {number} */ seat) => g.seats.find((s) => s.seat === seat)?.user ?? `#${seat}`;
  const where = g.shelf === 'your_turn' ? t('your-turn')
    : g.shelf === 'invited' ? t('invitation')
      : g.to_act.length ? t('turn-of', { name: g.to_act.map(names).join(', ') })
        : t(`status-${g.status}`);
  const left = g.time_left_ms != null ? [' · ', h('span', { class: 'left' }, [t('left', { left: duration(g.time_left_ms) })])] : [];
  item.prepend(h('strong', { class: `shelf ${g.shelf}` }, [where]), ...left, ' · ');
  if (g.unread_messages) item.append(' · ', h('span', { class: 'unread' }, [t('unread-messages', { n: g.unread_messages })]));
  if (g.your_turn) item.classList.add('your-turn');
  return item;
}

/** @param {HTMLElement} main */
export async function showLobby(main) {
  const variant = /** @type {HTMLSelectElement} */ (h('select', { id: 'variant' },
    ['keltis', 'neue-wege', 'keltis-card'].map((v) => h('option', { value: v }, [t(`variant-${v}`)]))));
  const players = /** @type {HTMLSelectElement} */ (h('select', { id: 'players' }));
  // One bot per seat beside the player's (each bot takes one seat), shown for the seats there are.
  const bots = [1, 2, 3].map((seat) => /** @type {HTMLSelectElement} */ (h('select', { id: seat === 1 ? 'bot' : `bot-${seat}` }, [
    h('option', { value: '' }, [t('none')]),
    ...['bot-random', 'bot-greedy', 'bot-mcts', 'bot-strong'].map((b) => h('option', { value: b }, [b])),
  ])));
  const botFields = bots.map((select, i) => h('p', { class: 'bot-field' }, [
    h('label', { for: select.id }, [i === 0 ? t('opponent-bot') : t('bot-for-seat', { seat: i + 2 })]), ' ', select,
  ]));
  /** The player counts the variant allows, and a bot field per other seat. */
  const fit = () => {
    const counts = variant.value === 'keltis-card' ? [2] : [2, 3, 4];
    const kept = Number(players.value) || 2;
    players.replaceChildren(...counts.map((n) => h('option', { value: n, selected: n === kept }, [String(n)])));
    const seats = Number(players.value);
    botFields.forEach((field, i) => { field.hidden = i >= seats - 1; });
    bots.forEach((b, i) => { if (i >= seats - 1) b.value = ''; });
    checkBots();
  };
  /** The form's own check: a bot twice is refused before sending. */
  const checkBots = () => {
    const chosen = bots.map((b) => b.value).filter(Boolean);
    const twice = chosen.length !== new Set(chosen).size;
    for (const b of bots) b.setCustomValidity(twice && b.value && chosen.indexOf(b.value) !== chosen.lastIndexOf(b.value) ? t('bot-twice') : '');
  };
  variant.addEventListener('change', fit);
  players.addEventListener('change', fit);
  for (const b of bots) b.addEventListener('change', checkBots);
  fit();
  const clock = h('select', { id: 'time-control' },
    Object.keys(TIME_CONTROLS).map((k) => h('option', { value: k }, [t(`tc-${k}`)])));
  // The players one follows, to invite at once (three at most).
  const friends = h('fieldset', { class: 'friends', id: 'friends', hidden: true });
  call('GET', '/me/following').then((/** @type {Schemas['Followed'][]} */ list) => {
    if (!list.length) return;
    const boxes = list.map((f) => h('label', { class: 'check' }, [h('input', { type: 'checkbox', value: f.user, name: 'invite' }), ` ${f.user}`]));
    friends.replaceChildren(h('legend', {}, [t('invite-friends')]), ...boxes);
    friends.addEventListener('change', () => {
      const all = /** @type {HTMLInputElement[]} */ ([...friends.querySelectorAll('input')]);
      const full = all.filter((c) => c.checked).length >= 3;
      for (const c of all) c.disabled = full && !c.checked;
    });
    friends.hidden = false;
  }, () => {});
  const inviteOnly = h('input', { id: 'invite-only', type: 'checkbox' });
  const rated = h('input', { id: 'rated', type: 'checkbox', checked: true });
  const value = (/** @type {Element} */ e) => /** @type {HTMLInputElement} */ (e).value;
  const checked = (/** @type {Element} */ e) => /** @type {HTMLInputElement} */ (e).checked;
  const create = async (/** @type {Event} */ e) => {
    e.preventDefault();
    /** @type {Schemas['NewGame']} */
    const request = {
      variant: /** @type {Schemas['Variant']} */ (value(variant)),
      players: Number(value(players)),
      invite_only: checked(inviteOnly),
      rated: checked(rated),
      bots: bots.map((b) => /** @type {Schemas['BotName']} */ (b.value)).filter(Boolean),
      invite: [...friends.querySelectorAll('input:checked')].map((c) => /** @type {HTMLInputElement} */ (c).value),
      time_control: TIME_CONTROLS[value(clock)],
    };
    try {
      /** @type {Schemas['GameDetail']} */
      const g = await call('POST', '/games', request);
      go(`/games/${g.id}`);
    } catch (err) {
      failed(err);
    }
  };
  const form = h('form', { class: 'new-game', onsubmit: create }, [
    h('label', { for: 'variant' }, [t('variant')]), variant,
    h('label', { for: 'players' }, [t('players')]), players,
    h('div', { class: 'bots' }, botFields),
    friends,
    h('label', { for: 'time-control' }, [t('time-control')]), clock,
    h('label', { class: 'check' }, [inviteOnly, t('invite-only')]),
    h('label', { class: 'check' }, [rated, t('rated')]),
    h('button', { type: 'submit' }, [t('create')]),
  ]);
  const now = playNow();
  const mine = h('ul', { class: 'games', id: 'my-games' });
  const open = h('ul', { class: 'games', id: 'open-games' });
  main.replaceChildren(
    h('h1', {}, [t('lobby')]),
    h('p', { class: 'device' }, [pushButton()]),
    now.section,
    h('section', { 'aria-labelledby': 'new-h' }, [h('h2', { id: 'new-h' }, [t('new-game')]), form]),
    h('section', { 'aria-labelledby': 'mine-h' }, [h('h2', { id: 'mine-h' }, [t('my-games')]), mine]),
    h('section', { 'aria-labelledby': 'open-h' }, [h('h2', { id: 'open-h' }, [t('open-games')]), open]),
  );
  const me = session()?.name;
  const seated = (/** @type {Schemas['GameSummary']} */ g) => g.seats.some((s) => s.user === me);
  const showMine = async () => {
    /** @type {Schemas['MyGamesPage']} */
    const m = await call('GET', '/me/games');
    // The games waiting for you first, then invitations (to be joined), the others, the finished.
    mine.replaceChildren(...(m.games.length ? m.games.map(myGameItem) : [h('li', {}, [t('nothing')])]));
  };
  try {
    /** @type {Schemas['GamePage']} */
    const o = await call('GET', '/games?filter=open');
    const others = o.games.filter((g) => !seated(g));
    open.replaceChildren(...(others.length ? others.map((g) => gameItem(g, true)) : [h('li', {}, [t('nothing')])]));
    await showMine();
  } catch (e) {
    failed(e);
  }
  // Live: the list again whenever the user's stream tells of a change, and the time left each minute.
  const stopListening = onChange(() => { showMine().catch(failed); });
  const ticker = window.setInterval(() => { showMine().catch(() => {}); }, 60_000);
  return () => {
    stopListening();
    clearInterval(ticker);
    now.stop();
  };
}
