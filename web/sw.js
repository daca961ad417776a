// The service worker (served at /sw.js, so that it controls the whole site): the app's shell
// offline, and pushes shown as notifications, grouped per game, that open (or focus) the game.

const SHELL = 'keltis-shell-v18';
const FILES = ['/', '/web/style.css', '/web/app.js', '/web/api.js', '/web/i18n.js', '/web/board.js',
  '/web/dom.js', '/web/words.js', '/web/table.js', '/web/move_log.js', '/web/lobby.js', '/web/play_now.js', '/web/rematch.js', '/web/events.js', '/web/ladder.js', '/web/challenge.js', '/web/game.js', '/web/replay.js', '/web/review.js',
  '/web/waiting.js', '/web/notify.js', '/web/settings.js', '/web/password.js', '/web/two_factor.js', '/web/delete_account.js', '/web/bot_account.js', '/web/table_talk.js', '/web/command_line.js', '/web/plan_line.js', '/web/plan_panel.js', '/web/text_table.js', '/web/live_game.js', '/web/moderation.js', '/web/oauth.js', '/web/players.js', '/web/help.js', '/web/boards/keltis-base.json', '/web/boards/neue-wege.json',
  '/web/messages/en.json', '/web/messages/fr.json', '/web/messages/de.json', '/manifest.webmanifest', '/web/icon-192.png', '/web/icon-512.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== SHELL) await caches.delete(name);
    await self.clients.claim();
  })());
});

// The network first, so that a new server version shows at once; the shell when offline. The API
// is never cached: offline, its calls fail and the page says it is offline.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  event.respondWith((async () => {
    try {
      const response = await fetch(event.request);
      if (response.ok && FILES.includes(url.pathname)) {
        const cache = await caches.open(SHELL);
        await cache.put(event.request, response.clone());
      }
      return response;
    } catch (e) {
      const cache = await caches.open(SHELL);
      // Every screen (`/games/12`) is the same page.
      const cached = await cache.match(event.request.mode === 'navigate' ? '/' : event.request);
      if (cached) return cached;
      throw e;
    }
  })());
});

self.addEventListener('push', (event) => {
  /** @type {{kind?: string, title?: string, body?: string, url?: string, tag?: string}} */
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { title: 'Keltis', body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.registration.showNotification(message.title || 'Keltis', {
    body: message.body || '',
    tag: message.tag || 'keltis',
    renotify: true,
    icon: '/web/icon-192.png',
    data: { url: message.url || '/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openPage(new URL(event.notification.data?.url || '/', self.location.origin).href));
});

/** The page `target` in a window of ours: one already open (led there), else a new one.
 * @param {string} target */
async function openPage(target) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => w.url === target) || windows[0];
  if (open) {
    if (open.url !== target && 'navigate' in open) await open.navigate(target);
    return open.focus();
  }
  return self.clients.openWindow(target);
}
