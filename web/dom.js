// @ts-check
/** Building the page: elements, the status line, durations in words. */

import { t } from './i18n.js';

/**
 * An element with attributes (`on…` ones are listeners) and children.
 * @param {string} tag @param {Record<string, any>} [attrs] @param {(Node | string)[]} [children]
 */
export function h(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, '');
    else if (v !== false && v != null) e.setAttribute(k, String(v));
  }
  e.append(...children);
  return e;
}

/** A form that runs its own checks, then `send` (what goes wrong is said).
 * @param {string} cls @param {(Node | string)[]} children @param {(form: HTMLFormElement) => Promise<void>} send */
export function checkedForm(cls, children, send) {
  const form = /** @type {HTMLFormElement} */ (h('form', { class: cls, onsubmit: (/** @type {Event} */ e) => {
    e.preventDefault();
    if (form.reportValidity()) send(form).catch(failed);
  } }, children));
  return form;
}

/** The status line (read out by screen readers). @param {string} text */
export function say(text) {
  const status = document.getElementById('status');
  if (status) status.textContent = text;
}

/** Show the screen at `path` (`/`, `/games/<id>`, `/records/<id>`, `/settings`) without reloading the page. @param {string} path */
export function go(path) {
  history.pushState(null, '', path);
  window.dispatchEvent(new Event('keltis:navigate'));
}

/** Whether `path` is one of the client's screens. @param {string} path */
export function isScreen(path) {
  return /^\/((games|records|events)\/\d+|events|settings|reset-password|players\/[^/]+|(leaderboards|help|ladders)\/[a-z-]+)?$/.test(path);
}

/** Say what went wrong; a request that could not reach the server (fetch rejects with a
 * TypeError) means the device is offline. @param {unknown} e */
export function failed(e) {
  if (e instanceof TypeError || !navigator.onLine) {
    say(t('offline'));
    return;
  }
  say(t('error', { message: e instanceof Error ? e.message : String(e) }));
}

/** A duration as `2 d 3 h`, `5 h 10 min` or `42 s`. @param {number} ms */
export function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const min = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${hours} h`;
  if (hours > 0) return `${hours} h ${min} min`;
  if (min > 0) return `${min} min ${s % 60} s`;
  return `${s} s`;
}
