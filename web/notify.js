// @ts-check
/** Notifications on this device: the service worker (the app's shell offline, pushes shown as
 * notifications) and, when the player asks, a push subscription registered with the server. */

import { call } from './api.js';
import { h, failed, say } from './dom.js';
import { t } from './i18n.js';

/** Register the service worker, and say honestly when the device is offline. */
export function registerWorker() {
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
  const offline = () => say(t('offline'));
  window.addEventListener('offline', offline);
  window.addEventListener('online', () => say(''));
  if (!navigator.onLine) offline();
}

/** The server's key as `applicationServerKey` wants it. @param {string} text */
function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Turn pushes on for this device: permission, a subscription, its registration. */
async function enablePush() {
  try {
    if ((await Notification.requestPermission()) !== 'granted') {
      say(t('push-denied'));
      return;
    }
    const registration = await navigator.serviceWorker.ready;
    /** @type {import('./types/api').components['schemas']['VapidKey']} */
    const key = await call('GET', '/push/vapid-public-key');
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: fromBase64Url(key.public_key),
    });
    await call('POST', '/me/push-subscriptions', subscription.toJSON());
    say(t('push-on'));
  } catch (e) {
    failed(e);
  }
}

/** A button that turns pushes on for this device; nothing where the browser cannot. */
export function pushButton() {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return '';
  return h('button', { type: 'button', id: 'push-on', onclick: enablePush }, [t('push-enable')]);
}
