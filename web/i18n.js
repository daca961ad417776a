// @ts-check
/**
 * The client's words, in English, French and German: the server's catalogue (its `web-`
 * messages, from `/web/messages/{lang}.json`). A message is a string with `{name}` marks, or one
 * selector: `{"$": "n", "*": "other", "one": "...", "other": "..."}`, whose variant is the
 * argument's own value, else its plural category.
 */

/** @typedef {string | {[key: string]: string}} Message */

const LANGUAGES = ['en', 'fr', 'de'];
let current = 'en';
/** @type {Record<string, Message>} */
let messages = {};
let plurals = new Intl.PluralRules('en');

/** The language kept in this browser, else the browser's own if we have it; its words loaded. */
export async function initLanguage() {
  await setLanguage(localStorage.getItem('keltis.lang') || navigator.language.slice(0, 2));
  return current;
}

/** Load a language's words (English for one we do not have). @param {string} lang */
export async function setLanguage(lang) {
  const chosen = LANGUAGES.includes(lang) ? lang : 'en';
  const response = await fetch(`/web/messages/${chosen}.json`);
  if (!response.ok) throw new Error(`the ${chosen} messages: ${response.status}`);
  messages = await response.json();
  current = chosen;
  plurals = new Intl.PluralRules(current);
  localStorage.setItem('keltis.lang', current);
  document.documentElement.lang = current;
}

/** The language in use. */
export function language() {
  return current;
}

/** A message, with its `{name}` marks filled. @param {string} key @param {Record<string, string | number>} [params] */
export function t(key, params = {}) {
  let message = messages[key];
  if (message === undefined) return key;
  if (typeof message !== 'string') {
    const value = params[message.$];
    const category = typeof value === 'number' ? plurals.select(value) : '';
    message = message[String(value)] ?? message[category] ?? message[message['*']] ?? key;
  }
  return message.replace(/\{(\w+)\}/g, (_, p) => String(params[p] ?? ''));
}
