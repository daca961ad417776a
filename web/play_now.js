// @ts-check
/** Play now: one tap files a pairing request with the player's last settings (kept on this
 * device); while requests wait, the lobby shows them with how long they have waited and a cancel
 * button, and opens the game as soon as one is seated. */

import { call } from './api.js';
import { h, duration, failed, go } from './dom.js';
import { t } from './i18n.js';
import { onChange } from './waiting.js';

/** @typedef {import('./types/api').components['schemas']} Schemas */

const DAY = 86400;
const KEY = 'keltis.play-now';

/** The time controls offered, by their option value. @type {Record<string, Schemas['TimeControl']>} */
export const TIME_CONTROLS = {
  none: { type: 'none' },
  day: { type: 'per_turn', seconds: DAY },
  three_days: { type: 'per_turn', seconds: 3 * DAY },
  fischer: { type: 'fischer', initial_seconds: 3 * DAY, increment_seconds: DAY, max_seconds: 7 * DAY },
};

/** The waits for a bot offered, in minutes ('' never). */
const BOT_WAITS = ['', '5', '60', '1440'];

/** @typedef {{variant: string, seats: number[], time: string, rated: boolean, bot: string}} Settings */

/** @returns {Settings} */
function lastSettings() {
  /** @type {Settings} */
  const fallback = { variant: 'keltis', seats: [2], time: 'none', rated: true, bot: '' };
  try {
    return { ...fallback, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
  } catch {
    return fallback;
  }
}

/** A request in words: variant, sizes, rated or casual. @param {Schemas['PairingRequest']} r */
function described(r) {
  const sizes = r.seats.join(' / ');
  return `${t(`variant-${r.variant}`)} · ${t('pn-seats', { sizes })} · ${r.rated ? t('rated') : t('casual')}`;
}

/** The "Play now" section and how to stop keeping it live. @returns {{section: HTMLElement, stop: () => void}} */
export function playNow() {
  const kept = lastSettings();
  const variant = /** @type {HTMLSelectElement} */ (h('select', { id: 'pn-variant' },
    ['keltis', 'neue-wege', 'keltis-card'].map((v) => h('option', { value: v, selected: v === kept.variant }, [t(`variant-${v}`)]))));
  const sizes = [2, 3, 4].map((n) => /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: `pn-seats-${n}`, value: String(n), checked: kept.seats.includes(n) })));
  const sizeLabels = sizes.map((box, i) => h('label', { class: 'check' }, [box, ` ${i + 2}`]));
  const fit = () => {
    const card = variant.value === 'keltis-card';
    sizeLabels.forEach((label, i) => { label.hidden = card && i > 0; });
    if (card) sizes.forEach((box, i) => { box.checked = i === 0; });
    if (!sizes.some((b) => b.checked)) sizes[0].checked = true;
  };
  variant.addEventListener('change', fit);
  fit();
  const time = /** @type {HTMLSelectElement} */ (h('select', { id: 'pn-time' },
    Object.keys(TIME_CONTROLS).map((k) => h('option', { value: k, selected: k === kept.time }, [t(`tc-${k}`)]))));
  const rated = /** @type {HTMLInputElement} */ (h('input', { id: 'pn-rated', type: 'checkbox', checked: kept.rated }));
  const bot = /** @type {HTMLSelectElement} */ (h('select', { id: 'pn-bot' },
    BOT_WAITS.map((m) => h('option', { value: m, selected: m === kept.bot }, [m ? t('pn-bot-after', { wait: duration(Number(m) * 60_000) }) : t('pn-bot-never')]))));
  const list = h('ul', { class: 'games', id: 'searching' });
  const status = h('p', { id: 'pn-status', role: 'status' });
  /** The requests this page saw waiting (or filed): one of them seated opens its game. */
  const watched = new Set();
  const show = async () => {
    /** @type {Schemas['PairingRequestList']} */
    const mine = await call('GET', '/pairing/requests');
    const seated = mine.requests.find((r) => r.state === 'seated' && watched.has(r.id));
    if (seated?.game_id != null) {
      go(`/games/${seated.game_id}`);
      return;
    }
    const waiting = mine.requests.filter((r) => r.state === 'waiting');
    for (const r of waiting) watched.add(r.id);
    status.textContent = waiting.length ? t('pn-searching', { n: waiting.length }) : '';
    list.replaceChildren(...waiting.map((r) => h('li', { 'data-request': String(r.id) }, [
      described(r), ' · ', t('pn-waited', { wait: duration(Math.max(0, Date.now() - r.filed_at)) }), ' ',
      h('button', {
        type: 'button',
        class: 'cancel',
        onclick: () => call('DELETE', `/pairing/requests/${r.id}`).then(show, failed),
      }, [t('cancel')]),
    ])));
  };
  const send = async (/** @type {Event} */ e) => {
    e.preventDefault();
    /** @type {Settings} */
    const settings = {
      variant: variant.value,
      seats: sizes.filter((b) => b.checked && !b.parentElement?.hidden).map((b) => Number(b.value)),
      time: time.value,
      rated: rated.checked,
      bot: bot.value,
    };
    localStorage.setItem(KEY, JSON.stringify(settings));
    /** @type {Schemas['NewPairingRequest']} */
    const request = {
      variant: /** @type {Schemas['Variant']} */ (settings.variant),
      seats: settings.seats,
      rated: settings.rated,
      time_control: TIME_CONTROLS[settings.time],
      bot_after_minutes: settings.bot ? Number(settings.bot) : null,
    };
    try {
      /** @type {Schemas['PairingRequest']} */
      const filed = await call('POST', '/pairing/requests', request);
      if (filed.state === 'seated' && filed.game_id != null) {
        go(`/games/${filed.game_id}`);
        return;
      }
      watched.add(filed.id);
      await show();
    } catch (err) {
      failed(err);
    }
  };
  const section = h('section', { 'aria-labelledby': 'pn-h', class: 'play-now' }, [
    h('h2', { id: 'pn-h' }, [t('play-now')]),
    h('p', {}, [t('pn-intro')]),
    h('form', { class: 'new-game', onsubmit: send }, [
      h('label', { for: 'pn-variant' }, [t('variant')]), variant,
      h('fieldset', { class: 'sizes' }, [h('legend', {}, [t('players')]), ...sizeLabels]),
      h('label', { for: 'pn-time' }, [t('time-control')]), time,
      h('label', { class: 'check' }, [rated, t('rated')]),
      h('label', { for: 'pn-bot' }, [t('pn-bot')]), bot,
      h('button', { type: 'submit', id: 'play-now' }, [t('play-now')]),
    ]),
    status,
    list,
  ]);
  show().catch(() => {});
  const stopListening = onChange(() => { show().catch(() => {}); });
  // The time waited, and a seat taken while the stream was away.
  const ticker = window.setInterval(() => { if (list.childElementCount) show().catch(() => {}); }, 5000);
  return {
    section,
    stop: () => {
      stopListening();
      clearInterval(ticker);
    },
  };
}
