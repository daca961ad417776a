// @ts-check
/** A variant's standing ladder (`/ladders/<variant>`): the rungs top first, join at the bottom,
 * challenge a player within reach above (the game opens at once), leave; the challenges open and
 * decided this week, kept live. */

import { call, session } from './api.js';
import { h, failed, go, say } from './dom.js';
import { t } from './i18n.js';
import { onChange } from './waiting.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

/** How many rungs above a player on `rung` may challenge (as the server rules). @param {number} rung */
const reach = (rung) => Math.max(1, Math.ceil((rung * 2) / 5));

/** @param {HTMLElement} main @param {string} variant */
export function showLadder(main, variant) {
  const me = session()?.name ?? '';
  let live = true;
  const path = `/ladders/${variant}`;
  /** @param {Schemas['LadderView']} l */
  const draw = (l) => {
    if (!live) return;
    const mine = l.rungs.find((r) => r.name === me);
    /** @param {Schemas['RungView']} r */
    const canChallenge = (r) => mine && r.rung < mine.rung && mine.rung - r.rung <= reach(mine.rung);
    main.replaceChildren(
      h('h1', {}, [t('ladder-title', { variant: t(`variant-${variant}`) })]),
      h('p', {}, ['keltis', 'neue-wege', 'keltis-card'].flatMap((v) => [h('a', { href: `/ladders/${v}` }, [t(`variant-${v}`)]), ' '])),
      h('p', {}, [t('ladder-rules')]),
      mine
        ? h('button', { type: 'button', id: 'ladder-leave', onclick: () => {
          call('DELETE', `${path}/rungs/${encodeURIComponent(me)}`).then(draw, failed);
        } }, [t('ladder-leave')])
        : h('button', { type: 'button', id: 'ladder-join', onclick: () => {
          call('POST', `${path}/rungs`, {}).then((/** @type {Schemas['LadderView']} */ next) => { say(t('ladder-joined')); draw(next); }, failed);
        } }, [t('ladder-join')]),
      h('table', { id: 'ladder' }, [
        h('thead', {}, [h('tr', {}, [t('ladder-rung'), t('event-player'), t('ladder-open'), ''].map((c) => h('th', {}, [c])))]),
        h('tbody', {}, l.rungs.map((r) => h('tr', { class: r.name === me ? 'me' : '' }, [
          h('td', {}, [String(r.rung)]),
          h('td', {}, [h('a', { href: `/players/${encodeURIComponent(r.name)}` }, [r.name])]),
          h('td', {}, [`${r.challenges_out} / ${r.challenges_in}`]),
          h('td', {}, canChallenge(r)
            ? [h('button', { type: 'button', class: 'challenge', onclick: () => {
              call('POST', `${path}/challenges`, { defender: r.name })
                .then((/** @type {Schemas['ChallengeView']} */ c) => go(`/games/${c.game_id}`), failed);
            } }, [t('ladder-challenge')])]
            : []),
        ]))),
      ]),
      h('h2', {}, [t('ladder-challenges')]),
      h('ul', { id: 'ladder-challenges' }, l.challenges.map((c) => h('li', {}, [
        h('a', { href: `/games/${c.game_id}` }, [t('ladder-challenge-of', { challenger: c.challenger, defender: c.defender })]),
        ' ', c.outcome ? t(`ladder-outcome-${c.outcome}`) : t('event-game-playing'),
      ]))),
    );
  };
  const load = () => call('GET', path).then(draw, failed);
  load();
  const stop = onChange(() => { load(); });
  return () => { live = false; stop(); };
}
