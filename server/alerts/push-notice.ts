// A notice as a Web Push message: the payload the service worker shows
// (public/sw.js reads exactly these fields), encrypted for one subscription
// (RFC 8291, aes128gcm) and signed with the server's VAPID keys (RFC 8292)
// by the `web-push` package. Sending stays with the deliverer, through the
// same SSRF-guarded fetch, timeout, retries and dead-lettering as webhooks.
import webpush from "web-push";
import { NOTICE_CLASS_LABELS, type NoticeClass } from "../alert-kinds";
import type { VapidKeys } from "../secrets/vapid-keys";
import type { AlertMessage } from "./alert-messages";

/** What a push carries (version 1). `url` is the deep link a click opens. */
export interface PushNotice {
  version: 1;
  id: string;
  class: NoticeClass | null;
  loopId: string | null;
  loopName: string;
  excerpt: string;
  title: string;
  body: string;
  url: string;
}

/** A subscription's keys as the browser's PushSubscription.toJSON() gives them. */
export interface PushKeys {
  p256dh: string;
  auth: string;
}

export function pushNoticeOf(message: AlertMessage): PushNotice {
  const loopName = message.loop ? message.loop.name || `Loop ${message.loop.id.slice(0, 8)}` : "Ralph Control";
  const label = message.class ? NOTICE_CLASS_LABELS[message.class] : "Test";
  return {
    version: 1,
    id: message.id,
    class: message.class,
    loopId: message.loop?.id ?? null,
    loopName,
    excerpt: message.excerpt,
    title: `${label}: ${loopName}`,
    body: message.excerpt,
    url: message.url,
  };
}

/** The request to the push service: endpoint, headers and the encrypted body. */
export function pushRequest(
  endpoint: string,
  keys: PushKeys,
  notice: PushNotice,
  vapid: VapidKeys,
  publicUrl: string,
): { headers: Record<string, string>; body: Buffer } {
  const details = webpush.generateRequestDetails({ endpoint, keys }, JSON.stringify(notice), {
    // Push services want a contact: the public https address, or a placeholder mailbox on plain http.
    vapidDetails: {
      subject: publicUrl.startsWith("https:") ? publicUrl : "mailto:ralph-control@localhost.invalid",
      ...vapid,
    },
    contentEncoding: "aes128gcm",
    // A notice older than a day is no longer news.
    TTL: 24 * 3600,
    urgency: notice.class === "question" || notice.class === "permission" ? "high" : "normal",
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) {
    // fetch computes the length itself and refuses a hand-set one.
    if (name.toLowerCase() !== "content-length") headers[name] = String(value);
  }
  return { headers, body: details.body as Buffer };
}
