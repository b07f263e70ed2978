// Atrium's service worker: shows pushed notifications (Web Push) when no
// dashboard tab is on screen, and opens the dashboard when one is clicked. Served with Cache-Control: no-cache so a
// new version is picked up at once.

const DASHBOARD_URL = '/dashboard/notifications';

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The pushed notification (the server's Notification JSON), or a plain text message. */
function readPayload(event) {
  if (!event.data) return { message: 'You have a new notification.' };
  try {
    const parsed = event.data.json();
    if (parsed && typeof parsed.message === 'string') return parsed;
  } catch {
    // not JSON: fall through
  }
  return { message: event.data.text() };
}

/** Whether a dashboard tab is on screen: it shows the notification itself (toast, banner, list). */
async function dashboardVisible() {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.some(
    (client) => client.visibilityState === 'visible' && new URL(client.url).pathname.startsWith('/dashboard'),
  );
}

self.addEventListener('push', (event) => {
  const notification = readPayload(event);
  event.waitUntil(
    (async () => {
      if (await dashboardVisible()) return;
      // A workspace's message names its sender and workspace; only an admin's message is Atrium's own voice.
      const source =
        notification.type === 'workspace' && notification.workspace
          ? `From ${notification.sender ? notification.sender.name : 'a member'} in ${notification.workspace.name}`
          : null;
      await self.registration.showNotification(source || 'Atrium', {
        body: notification.message,
        icon: '/favicon.svg',
        badge: '/favicon.svg',
        tag: notification.id ? `atrium-${notification.id}` : undefined,
        timestamp: notification.timestamp ? Date.parse(notification.timestamp) : Date.now(),
        data: { url: DASHBOARD_URL, notification },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? DASHBOARD_URL, self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const dashboard = windows.find((client) => new URL(client.url).pathname.startsWith('/dashboard'));
      if (dashboard) {
        await dashboard.focus();
        if ('navigate' in dashboard) await dashboard.navigate(target).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
