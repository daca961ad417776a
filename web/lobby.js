// @ts-check
/** The lobby: a new game (variant, players, a bot, time control, invitation only, rated), the
 * player's games and the open games to join. */

import { call, session } from './api.js';
import { h, failed } from './dom.js';
import { t } from './i18n.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

const DAY = 86400;

/** The time controls offered, by their option value. @type {Record<string, Schemas['TimeControl']>} */
const TIME_CONTROLS = {
  none: { type: 'none' },
  day: { type: 'per_turn', seconds: DAY },
  three_days: { type: 'per_turn', seconds: 3 * DAY },
  fischer: { type: 'fischer', initial_seconds: 3 * DAY, increment_seconds: DAY, max_seconds: 7 * DAY },
};

/** A game in a list, with what the caller can do. @param {Schemas['GameSummary']} g @param {boolean} joinable */
function gameItem(g, joinable) {
  const who = g.seats.map((s) => s.user).join(', ');
  const label = `#${g.id} ${g.variant} · ${who} · ${t(/** @type {any} */ (`status_${g.status}`))}`;
  const finished = g.status === 'over' || g.status === 'aborted';
  const join = async () => {
    try {
      await call('POST', `/games/${g.id}/join`, {});
      location.hash = `#/game/${g.id}`;
    } catch (e) {
      failed(e);
    }
  };
  return h('li', {}, [
    h('a', { href: `#/game/${g.id}` }, [label]),
    ...(joinable ? [' ', h('button', { type: 'button', onclick: join }, [t('join')])] : []),
    ...(finished ? [' ', h('a', { href: `#/record/${g.id}` }, [t('replay')])] : []),
  ]);
}

/** @param {HTMLElement} main */
export async function showLobby(main) {
  const variant = h('select', { id: 'variant' }, ['keltis', 'neue-wege', 'keltis-card'].map((v) => h('option', { value: v }, [v])));
  const players = h('select', { id: 'players' }, [2, 3, 4].map((n) => h('option', { value: n }, [String(n)])));
  const bot = h('select', { id: 'bot' }, [
    h('option', { value: '' }, [t('none')]),
    ...['bot-random', 'bot-greedy', 'bot-mcts'].map((b) => h('option', { value: b }, [b])),
  ]);
  const clock = h('select', { id: 'time-control' },
    Object.keys(TIME_CONTROLS).map((k) => h('option', { value: k }, [t(/** @type {any} */ (`tc_${k}`))])));
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
      bots: value(bot) ? [/** @type {Schemas['BotName']} */ (value(bot))] : [],
      time_control: TIME_CONTROLS[value(clock)],
    };
    try {
      /** @type {Schemas['GameDetail']} */
      const g = await call('POST', '/games', request);
      location.hash = `#/game/${g.id}`;
    } catch (err) {
      failed(err);
    }
  };
  const form = h('form', { class: 'new-game', onsubmit: create }, [
    h('label', { for: 'variant' }, [t('variant')]), variant,
    h('label', { for: 'players' }, [t('players')]), players,
    h('label', { for: 'bot' }, [t('opponent_bot')]), bot,
    h('label', { for: 'time-control' }, [t('time_control')]), clock,
    h('label', { class: 'check' }, [inviteOnly, t('invite_only')]),
    h('label', { class: 'check' }, [rated, t('rated')]),
    h('button', { type: 'submit' }, [t('create')]),
  ]);
  const mine = h('ul', { class: 'games', id: 'my-games' });
  const open = h('ul', { class: 'games', id: 'open-games' });
  main.replaceChildren(
    h('h1', {}, [t('lobby')]),
    h('section', { 'aria-labelledby': 'new-h' }, [h('h2', { id: 'new-h' }, [t('new_game')]), form]),
    h('section', { 'aria-labelledby': 'mine-h' }, [h('h2', { id: 'mine-h' }, [t('my_games')]), mine]),
    h('section', { 'aria-labelledby': 'open-h' }, [h('h2', { id: 'open-h' }, [t('open_games')]), open]),
  );
  try {
    /** @type {[Schemas['GamePage'], Schemas['GamePage']]} */
    const [m, o] = await Promise.all([call('GET', '/games?filter=mine'), call('GET', '/games?filter=open')]);
    const me = session()?.name;
    const seated = (/** @type {Schemas['GameSummary']} */ g) => g.seats.some((s) => s.user === me);
    // An invitation lists the game among the player's own, to be joined.
    mine.replaceChildren(...(m.games.length
      ? m.games.map((g) => gameItem(g, g.status === 'open' && !seated(g)))
      : [h('li', {}, [t('nothing')])]));
    const others = o.games.filter((g) => !seated(g));
    open.replaceChildren(...(others.length ? others.map((g) => gameItem(g, true)) : [h('li', {}, [t('nothing')])]));
  } catch (e) {
    failed(e);
  }
}
