// @ts-check
/** Calls to the server's API as the signed-in player; a 401 refreshes the tokens once. */

const BASE = '/api/v1';
const KEY = 'keltis.session';

/** A refused request: the server's problem (`code`, `message`) and its status. */
export class ApiError extends Error {
  /** @param {number} status @param {{code: string, message: string, current_version?: number}} problem */
  constructor(status, problem) {
    super(problem.message);
    this.status = status;
    this.code = problem.code;
    this.problem = problem;
  }
}

/** @typedef {{access_token: string, refresh_token: string, name: string, user_id: number}} Session */

/** @returns {Session | null} */
export function session() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || 'null');
  } catch {
    return null;
  }
}

/** @param {Session | null} s */
function keep(s) {
  if (s) localStorage.setItem(KEY, JSON.stringify(s));
  else localStorage.removeItem(KEY);
}

/** One API call; the answer's JSON (typed by the caller).
 * @param {string} method @param {string} path @param {unknown} [body] @param {boolean} [retried]
 * @returns {Promise<any>} */
export async function call(method, path, body, retried = false) {
  const s = session();
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (s) headers.Authorization = `Bearer ${s.access_token}`;
  const r = await fetch(BASE + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (r.status === 401 && s && !retried && (await refresh(s))) {
    return call(method, path, body, true);
  }
  const text = await r.text();
  const json = text ? JSON.parse(text) : null;
  if (!r.ok) {
    throw new ApiError(r.status, json || { code: `http_${r.status}`, message: r.statusText });
  }
  return json;
}

/** @param {Session} s */
async function refresh(s) {
  const r = await fetch(`${BASE}/auth/refresh`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: s.refresh_token }),
  });
  if (!r.ok) {
    keep(null);
    return false;
  }
  keep(await r.json());
  return true;
}

/** Register (when `create`) or log in (with `code` when two-factor sign-in is on); the session
 * is kept in this browser.
 * @param {string} name @param {string} password @param {boolean} create @param {string} [code] */
export async function signIn(name, password, create, code) {
  keep(await call('POST', create ? '/auth/register' : '/auth/login', code ? { name, password, code } : { name, password }));
}

export function signOut() {
  keep(null);
}
