// Ralph Control's service worker: shows Web Push notices and opens their deep
// link on click. The payload is server/alerts/push-notice.ts's PushNotice:
// { version, id, class, loopId, loopName, excerpt, title, body, url }.
// Plain JavaScript served as is from public/ (no bundler sees this file).
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let notice;
  try {
    notice = event.data ? event.data.json() : null;
  } catch {
    notice = null;
  }
  if (!notice || typeof notice.title !== "string") {
    notice = { title: "Ralph Control", body: "A loop needs you", url: "/inbox", class: null, id: "unknown" };
  }
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      // One notification per notice; a newer one for the same loop and class replaces the older.
      tag: notice.loopId ? `${notice.loopId}:${notice.class}` : notice.id,
      icon: "/icons/icon-192.png",
      requireInteraction: notice.class === "question" || notice.class === "permission",
      data: { url: notice.url, class: notice.class, loopId: notice.loopId, id: notice.id },
    }),
  );
});

/**
 * Opens a notice's deep link: a tab of this app navigates there, else a new window. Only the
 * link's path is kept, on this worker's own origin: a payload never sends the user elsewhere, and
 * a server whose public URL differs from the address this browser uses still lands here.
 */
async function openNotice(url) {
  const link = new URL(url || "/inbox", self.location.origin);
  const href = new URL(link.pathname + link.search + link.hash, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window" });
  for (const client of windows) {
    if ("navigate" in client) {
      // Focusing needs the click's user activation; without it (the inbox's "open") navigating is enough.
      await client.focus().catch(() => undefined);
      return client.navigate(href);
    }
  }
  return self.clients.openWindow(href);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openNotice(event.notification.data && event.notification.data.url));
});

// Tests and the inbox page can ask the worker to run the click path for a shown notification.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "open-notice") return;
  event.waitUntil(
    self.registration.getNotifications({ tag: data.tag }).then((list) => {
      const n = list[0];
      if (!n) return undefined;
      n.close();
      return openNotice(n.data && n.data.url);
    }),
  );
});
