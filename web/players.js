// @ts-check
/** Players and their numbers: a player's profile (`/players/<name>`: ratings per variant with
 * their history as a small chart, record, current and finished games) and the leaderboards
 * (`/leaderboards/<variant>`). Names anywhere in the client link to profiles (`playerLink`). */

import { call } from './api.js';
import { h, failed, say } from './dom.js';
import { t, language } from './i18n.js';
import { reportForm } from './moderation.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

export const VARIANTS = /** @type {const} */ (['keltis', 'neue-wege', 'keltis-card']);

/** A player's name as a link to their profile. @param {string} name */
export function playerLink(name) {
  return h('a', { href: `/players/${encodeURIComponent(name)}`, class: 'player' }, [name]);
}

/** Follow, block or report a player from their profile (nothing for one's own).
 * @param {string} name */
async function blockButton(name) {
  /** @type {Schemas['Me']} */
  const me = await call('GET', '/me');
  if (me.name.toLowerCase() === name.toLowerCase()) return '';
  const same = (/** @type {string} */ other) => other.toLowerCase() === name.toLowerCase();
  /** @type {Schemas['Block'][]} */
  const blocks = await call('GET', '/me/blocks');
  /** @type {Schemas['Followed'][]} */
  const following = await call('GET', '/me/following');
  let followed = following.some((f) => same(f.user));
  const followButton = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', id: 'follow' }));
  const followLabel = () => { followButton.textContent = followed ? t('unfollow') : t('follow'); };
  followButton.addEventListener('click', () => {
    call(followed ? 'DELETE' : 'PUT', `/me/following/${encodeURIComponent(name)}`).then(() => {
      followed = !followed;
      followLabel();
      say(followed ? t('followed-now', { name }) : t('unfollowed-now', { name }));
    }, failed);
  });
  followLabel();
  const reportPlace = h('span');
  const reportButton = h('button', { type: 'button', id: 'report', onclick: () => reportPlace.replaceChildren(reportForm(name, null)) }, [t('report')]);
  let blocked = blocks.some((b) => same(b.user));
  const button = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', id: 'block' }));
  const label = () => { button.textContent = blocked ? t('unblock') : t('block'); };
  button.addEventListener('click', async () => {
    try {
      await call(blocked ? 'DELETE' : 'PUT', `/me/blocks/${encodeURIComponent(name)}`);
      blocked = !blocked;
      label();
      say(blocked ? t('blocked-now', { name }) : t('unblocked-now', { name }));
    } catch (e) {
      failed(e);
    }
  });
  label();
  return h('p', { class: 'block' }, [followButton, ' ', button, ' ', reportButton, ' ', reportPlace]);
}

/** A date in the reader's language. @param {number} ms */
function day(ms) {
  return new Date(ms).toLocaleDateString(language(), { dateStyle: 'medium' });
}

/** A rating's history as a small line (oldest to newest), with its words for screen readers.
 * @param {Schemas['RatingChange'][]} changes newest first */
function chart(changes) {
  const points = [...changes].reverse().map((c) => c.rating);
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 120 32');
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  const first = points[0] ?? 0;
  const last = points[points.length - 1] ?? 0;
  svg.setAttribute('aria-label', t('rating-history', { from: Math.round(first), to: Math.round(last), n: points.length }));
  if (points.length > 1) {
    const lo = Math.min(...points);
    const hi = Math.max(...points);
    const span = hi - lo || 1;
    const line = document.createElementNS(NS, 'polyline');
    line.setAttribute('points', points.map((p, i) => `${(i * 120) / (points.length - 1)},${30 - ((p - lo) * 28) / span}`).join(' '));
    svg.append(line);
  }
  return svg;
}

/** Finished games as a list: date, variant, each seat's place and score, a link to the record.
 * @param {Schemas['FinishedGame'][]} games */
function finishedList(games) {
  if (!games.length) return h('p', {}, [t('nothing')]);
  return h('ul', { class: 'games', id: 'finished' }, games.map((g) => h('li', {}, [
    `${day(g.ended_at)} · ${t(`variant-${g.variant}`)} · `,
    ...g.seats.flatMap((s, i) => [i ? ', ' : '', playerLink(s.user), ` ${s.total} (${s.place}.)`]),
    ' · ', h('a', { href: `/records/${g.id}` }, [t('replay')]),
  ])));
}

/** The profile screen. @param {HTMLElement} main @param {string} name */
export function showProfile(main, name) {
  main.replaceChildren(h('h1', {}, [name]));
  (async () => {
    /** @type {Schemas['PlayerProfile']} */
    const p = await call('GET', `/players/${encodeURIComponent(name)}`);
    /** @type {Schemas['HistoryPage']} */
    const history = await call('GET', `/history?player=${encodeURIComponent(name)}&limit=20`);
    const ratings = p.ratings.length
      ? h('table', { class: 'ratings' }, [
        h('thead', {}, [h('tr', {}, [t('variant'), t('rating'), t('rated-games'), t('rating-chart')].map((c) => h('th', { scope: 'col' }, [c])))]),
        h('tbody', {}, p.ratings.map((r) => h('tr', {}, [
          h('th', { scope: 'row' }, [h('a', { href: `/leaderboards/${r.variant}` }, [t(`variant-${r.variant}`)])]),
          h('td', {}, [`${Math.round(r.rating)} ± ${Math.round(r.deviation)}${r.provisional ? ` (${t('provisional')})` : ''}`]),
          h('td', {}, [String(r.rated_games)]),
          h('td', {}, [chart(r.changes)]),
        ]))),
      ])
      : h('p', {}, [t('nothing')]);
    const records = h('ul', {}, p.records.map((r) => h('li', {}, [
      `${t(`variant-${r.variant}`)}: ${t('record-line', { played: r.played, won: r.won, lost: r.lost, drawn: r.drawn })}`,
    ])));
    main.replaceChildren(
      h('h1', {}, [p.is_bot ? `${p.name} (${t('bot')})` : p.name]),
      h('p', {}, [t('member-since', { when: day(p.member_since) })]),
      await blockButton(p.name),
      h('p', { class: 'timeouts' }, [t('timed-out-games', { n: p.timed_out_games })]),
      h('section', { 'aria-labelledby': 'ratings-h' }, [h('h2', { id: 'ratings-h' }, [t('ratings')]), ratings]),
      h('section', { 'aria-labelledby': 'record-h' }, [h('h2', { id: 'record-h' }, [t('record')]), p.records.length ? records : h('p', {}, [t('nothing')])]),
      h('section', { 'aria-labelledby': 'accuracy-h' }, [h('h2', { id: 'accuracy-h' }, [t('review-accuracy')]),
        p.accuracy.length
          ? h('ul', { class: 'accuracy' }, p.accuracy.map((a) => h('li', { 'data-variant': a.variant }, [
            `${t(`variant-${a.variant}`)}: ${t('accuracy-line', { accuracy: a.accuracy.toFixed(1), games: a.games })}`])))
          : h('p', {}, [t('nothing')])]),
      h('section', { 'aria-labelledby': 'current-h' }, [h('h2', { id: 'current-h' }, [t('current-games')]),
        p.current_games.length
          ? h('ul', { class: 'games' }, p.current_games.map((g) => h('li', {}, [h('a', { href: `/games/${g.id}` }, [
            `#${g.id} ${t(`variant-${g.variant}`)} · ${g.seats.map((s) => s.user).join(', ')}`])])))
          : h('p', {}, [t('nothing')])]),
      h('section', { 'aria-labelledby': 'finished-h' }, [h('h2', { id: 'finished-h' }, [t('finished-games')]), finishedList(history.games)]),
    );
  })().catch(failed);
  return () => {};
}

/** The leaderboard screen of a variant. @param {HTMLElement} main @param {string} variant */
export function showLeaderboard(main, variant) {
  const tabs = h('nav', { class: 'tabs', 'aria-label': t('leaderboards') }, VARIANTS.map((v) => h('a', {
    href: `/leaderboards/${v}`, 'aria-current': v === variant ? 'page' : false,
  }, [t(`variant-${v}`)])));
  const body = h('div');
  main.replaceChildren(h('h1', {}, [t('leaderboard-of', { variant: t(`variant-${variant}`) })]), tabs, body);
  (async () => {
    /** @type {Schemas['LeaderboardPage']} */
    const board = await call('GET', `/leaderboards/${encodeURIComponent(variant)}?limit=100`);
    body.replaceChildren(board.entries.length
      ? h('table', { class: 'leaderboard', id: 'leaderboard' }, [
        h('thead', {}, [h('tr', {}, [t('rank'), t('player'), t('rating'), t('rated-games')].map((c) => h('th', { scope: 'col' }, [c])))]),
        h('tbody', {}, board.entries.map((e) => h('tr', {}, [
          h('td', {}, [String(e.rank)]),
          h('th', { scope: 'row' }, [playerLink(e.user), e.is_bot ? ` (${t('bot')})` : '']),
          h('td', {}, [`${Math.round(e.rating)} ± ${Math.round(e.deviation)}`]),
          h('td', {}, [String(e.rated_games)]),
        ]))),
      ])
      : h('p', {}, [t('leaderboard-empty')]));
  })().catch(failed);
  return () => {};
}
