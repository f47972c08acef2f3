/**
 * When a provider's usage limit resets, read from what the agent itself said:
 * its final message ("You've hit your limit · resets 5pm (Europe/Vilnius)",
 * "Claude AI usage limit reached|1767225600", "try again in 2 hours 5
 * minutes") and, for HTTP providers, `retry-after` and the reset headers.
 * Pure: the clock comes in as `now`; time zones go through Intl.
 */

/** What an adapter hands over when the agent's own result says it hit a usage limit. */
export interface UsageLimitSignal {
  /** The agent's own final status or message (never content it read or echoed). */
  message: string;
  /** The `retry-after` header: seconds or an HTTP date. */
  retryAfter?: string | null;
  /** Provider reset headers (anthropic-ratelimit-*-reset, x-ratelimit-reset-*), by lower-case name. */
  resetHeaders?: Record<string, string>;
  /**
   * The reset the agent's stream stated as data (epoch ms): Claude Code's
   * rate_limit_event `resetsAt`, Codex's `rate_limits` window `resets_at`.
   * Preferred over any wording.
   */
  resetAt?: number | null;
  /** Which window: Claude's rateLimitType (five_hour, seven_day, seven_day_opus…) or Codex's primary/secondary. */
  window?: string | null;
  /** How much of the window is used (0-100), when the stream said. */
  usedPercent?: number | null;
}

/** Phrases a provider uses for a usage or rate limit in its own status line. */
const LIMIT_PATTERNS = [
  // "hit your limit", "hit your usage limit", "hit your session limit", "5-hour limit", "weekly limit", "Opus limit".
  /\bhit your (?:[\w-]+ ){0,2}limit\b/i,
  /\busage limit (?:reached|exceeded|hit)\b/i,
  /\brate[- ]limit(?:ed| reached| exceeded)\b/i,
  /\b(?:too many requests|overloaded(?:_error)?)\b/i,
  /\b(?:session|weekly|daily|5-hour) limit (?:reached|exceeded|hit)\b/i,
  /\bquota (?:exceeded|exhausted)\b/i,
  /\b(?:HTTP |status )?(?:429|529)\b.*\b(?:limit|too many|overloaded)\b/i,
];

/** True when an agent's final status line reports a usage or rate limit. */
export function isUsageLimitText(text: string): boolean {
  const head = text.slice(0, 2000);
  return LIMIT_PATTERNS.some((p) => p.test(head));
}

/** A plan's quota (only its reset helps) rather than a transient rate limit (backing off helps). */
const USAGE_QUOTA = [
  /\bhit your (?:[\w-]+ ){0,2}limit\b/i,
  /\busage limit\b/i,
  /\b(?:session|weekly|daily|5-hour) limit\b/i,
  /\bquota (?:exceeded|exhausted)\b/i,
  /\bpurchase more credits\b/i,
];

/** Which kind of limit an agent's limit message reports (call only when isUsageLimitText holds). */
export function limitKindOf(text: string): "usage" | "rate" {
  const head = text.slice(0, 2000);
  return USAGE_QUOTA.some((p) => p.test(head)) ? "usage" : "rate";
}

const UNIT_MS: Record<string, number> = {
  d: 86_400_000,
  day: 86_400_000,
  h: 3_600_000,
  hr: 3_600_000,
  hour: 3_600_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  s: 1000,
  sec: 1000,
  second: 1000,
};

/** "2 hours 5 minutes", "4 days 1 hour", "90 seconds", "1h2m3.5s", "6m0s": milliseconds, or null. */
export function parseDurationMs(text: string): number | null {
  const re = /(\d+(?:\.\d+)?)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])/gi;
  let total = 0;
  let found = false;
  for (const match of text.matchAll(re)) {
    const unit = match[2]!.toLowerCase().replace(/s$/, "") || "s";
    const ms = UNIT_MS[unit] ?? UNIT_MS[match[2]!.toLowerCase()];
    if (ms === undefined) continue;
    total += Number(match[1]) * ms;
    found = true;
  }
  return found ? Math.round(total) : null;
}

/** The zone's offset from UTC at `at` (ms; positive east of Greenwich). Throws RangeError for an unknown zone. */
export function zoneOffsetMs(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - (at - (((at % 1000) + 1000) % 1000));
}

/** The epoch ms of a wall-clock time in `zone`, for a local calendar date. */
function zonedToEpoch(zone: string, y: number, mo: number, d: number, h: number, mi: number, sec = 0): number {
  const naive = Date.UTC(y, mo, d, h, mi, sec);
  // Twice: the offset at the guess may differ from the offset at the answer across a DST change.
  let guess = naive - zoneOffsetMs(zone, naive);
  guess = naive - zoneOffsetMs(zone, guess);
  return guess;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * A time of day printed a moment ago may already be behind this clock ("resets
 * 3pm" read at 15:00:05, or a CLI clock a little ahead of ours): within this
 * much it means "just now", never the same time tomorrow.
 */
export const RESET_SKEW_MS = 5 * 60_000;

/** Claude Code's "resets …" and Codex's "try again at …" (Codex prints "%-I:%M %p", "%b %-d %-I:%M %p", "%b %-d, %Y %-I:%M %p"). */
const RESET_AT =
  /\b(?:resets?|try again at|available again at)\s+(?:at\s+|on\s+)?(?:([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(\d{4}),?\s+)?(?:at\s+)?)?(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(?:([ap])\.?m\b\.?)?(?:\s*\(([^)]+)\))?/i;

/**
 * "resets 5pm (Europe/Vilnius)", "resets 2:12:54am (UTC)", "resets at 17:00 (UTC)",
 * "resets Nov 25, 5pm (Europe/Vilnius)", "try again at 2:28 AM", "try again at
 * Nov 29, 2026 2:28 AM": the next such moment, or one at most RESET_SKEW_MS
 * behind `now` (it just passed). Without a zone in the text, `defaultZone` applies.
 */
export function parseResetsAt(text: string, now: number, defaultZone = "UTC"): number | null {
  const match = RESET_AT.exec(text);
  if (!match) return null;
  const [, month, day, year, h, mi, sec, meridiem, zoneText] = match;
  let hour = Number(h);
  const minute = mi ? Number(mi) : 0;
  const second = sec ? Number(sec) : 0;
  const ampm = meridiem?.toLowerCase();
  if (!ampm && !mi) return null; // "resets 5" alone is not a time
  if (ampm && (hour < 1 || hour > 12)) return null;
  if (ampm === "p" && hour < 12) hour += 12;
  if (ampm === "a" && hour === 12) hour = 0;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const zone = zoneText?.trim() || defaultZone;
  try {
    const local = new Date(now + zoneOffsetMs(zone, now));
    const monthIndex = month ? MONTHS.indexOf(month.toLowerCase()) : -1;
    if (month && monthIndex < 0) return null;
    if (monthIndex >= 0) {
      const y = year ? Number(year) : local.getUTCFullYear();
      let at = zonedToEpoch(zone, y, monthIndex, Number(day), hour, minute, second);
      // A date without a year already well past belongs to next year (the caller bounds how far ahead).
      if (!year && at < now - 86_400_000) at = zonedToEpoch(zone, y + 1, monthIndex, Number(day), hour, minute, second);
      return at;
    }
    for (let days = 0; days <= 2; days++) {
      const at = zonedToEpoch(
        zone,
        local.getUTCFullYear(),
        local.getUTCMonth(),
        local.getUTCDate() + days,
        hour,
        minute,
        second,
      );
      // Today's time still to come, or just passed: never rolled a day ahead.
      if (at > now - (days === 0 ? RESET_SKEW_MS : 0)) return at;
    }
    return null;
  } catch {
    return null; // an unknown time zone: fall back to the backoff rather than guess
  }
}

/** `retry-after`: delay seconds or an HTTP date. */
function retryAfterAt(value: string, now: number): number | null {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return now + Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isFinite(at) ? at : null;
}

/** A reset header: an RFC 3339 time (Anthropic), epoch seconds, or a duration like "6m0s" (OpenAI). */
function resetHeaderAt(value: string, now: number): number | null {
  const text = value.trim();
  if (/^\d{10}(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (/^\d+(\.\d+)?$/.test(text)) return now + Math.round(Number(text) * 1000);
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) {
    const at = Date.parse(text);
    return Number.isFinite(at) ? at : null;
  }
  const ms = parseDurationMs(text);
  return ms === null ? null : now + ms;
}

/** The longest a window of this kind can last: a reset further ahead is a misreading, not a wait. */
export function maxResetAheadMs(signal: Pick<UsageLimitSignal, "message" | "window">): number {
  const window = signal.window ?? "";
  const session = window === "five_hour" || /\b(?:session|5-hour) limit\b/i.test(signal.message.slice(0, 2000));
  // 5 hours and a little for the session window; a week and a day for the weekly ones and anything else.
  return session ? 5 * 3_600_000 + RESET_SKEW_MS : 8 * 86_400_000;
}

/**
 * When the limit resets, or null when nothing the agent said gives it (the
 * caller then backs off, bounded). A reset stated as data comes first, then
 * `retry-after` and reset headers, then the wording. A time up to
 * RESET_SKEW_MS past means "now"; one further past, or further ahead than
 * the window can last (maxResetAheadMs), counts as unknown: a misread time
 * never blocks the account for a day.
 */
export function usageLimitResetAt(signal: UsageLimitSignal, now: number, defaultZone = "UTC"): number | null {
  const candidates: number[] = [];
  if (typeof signal.resetAt === "number" && Number.isFinite(signal.resetAt)) candidates.push(signal.resetAt);
  if (candidates.length === 0 && signal.retryAfter) {
    const at = retryAfterAt(signal.retryAfter, now);
    if (at !== null) candidates.push(at);
  }
  if (candidates.length === 0) {
    // Limited on one dimension (requests, tokens): the latest reset is the one that frees the call.
    const resets = Object.values(signal.resetHeaders ?? {})
      .map((v) => resetHeaderAt(v, now))
      .filter((at): at is number => at !== null);
    if (resets.length > 0) candidates.push(Math.max(...resets));
  }
  if (candidates.length === 0) {
    const message = signal.message;
    const epoch = /\|\s*(\d{10})\b/.exec(message);
    if (epoch) candidates.push(Number(epoch[1]) * 1000);
    else {
      const resets = parseResetsAt(message, now, defaultZone);
      if (resets !== null) candidates.push(resets);
      else {
        const relative = /\b(?:try again|retry|resets?|available again)\s+(?:in|after)\s+([^.;\n]+)/i.exec(message);
        const ms = relative ? parseDurationMs(relative[1]!) : null;
        if (ms !== null) candidates.push(now + ms);
      }
    }
  }
  const at = candidates[0];
  if (at === undefined || !Number.isFinite(at)) return null;
  if (at <= now - RESET_SKEW_MS || at > now + maxResetAheadMs(signal)) return null;
  return Math.max(at, now);
}
