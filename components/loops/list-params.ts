// The loops list's filters, sort and page live in the URL so a filtered view
// can be shared and survives a reload. Pure: the server page prefetches with
// exactly the input the browser will ask for.
export const SORTS = ["updated", "created", "cost", "iteration"] as const;
export type ListSort = (typeof SORTS)[number];

export interface ListParams {
  status: string[];
  agentKind: string[];
  text: string;
  sort: ListSort;
  direction: "asc" | "desc";
  cursor: string | null;
}

export const STATUS_FILTERS = [
  "running",
  "queued",
  "waiting",
  "waiting_for_limit",
  "paused",
  "awaiting_approval",
  "needs_attention",
  "completed",
  "failed",
  "stopped",
  "draft",
] as const;
export const AGENT_FILTERS = ["demo", "command", "llm", "webhook"] as const;
export const PAGE_SIZE = 25;

type Search = Record<string, string | string[] | undefined> | URLSearchParams;

function get(search: Search, key: string): string | undefined {
  if (search instanceof URLSearchParams) return search.get(key) ?? undefined;
  const v = search[key];
  return Array.isArray(v) ? v[0] : v;
}

const list = (v: string | undefined, allowed: readonly string[]) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => allowed.includes(s));

export function parseListParams(search: Search): ListParams {
  const sort = get(search, "sort");
  return {
    status: list(get(search, "status"), STATUS_FILTERS),
    agentKind: list(get(search, "agent"), AGENT_FILTERS),
    text: (get(search, "q") ?? "").slice(0, 200),
    sort: (SORTS as readonly string[]).includes(sort ?? "") ? (sort as ListSort) : "updated",
    direction: get(search, "dir") === "asc" ? "asc" : "desc",
    cursor: get(search, "cursor")?.slice(0, 100) || null,
  };
}

export function toSearch(p: ListParams): string {
  const s = new URLSearchParams();
  if (p.status.length) s.set("status", p.status.join(","));
  if (p.agentKind.length) s.set("agent", p.agentKind.join(","));
  if (p.text) s.set("q", p.text);
  if (p.sort !== "updated") s.set("sort", p.sort);
  if (p.direction !== "desc") s.set("dir", p.direction);
  if (p.cursor) s.set("cursor", p.cursor);
  const out = s.toString();
  return out ? `?${out}` : "";
}

/** The tRPC input for a view; identical on server and client so the prefetch hydrates. */
export function toListInput(p: ListParams) {
  return {
    ...(p.status.length ? { status: p.status } : {}),
    ...(p.agentKind.length ? { agentKind: p.agentKind } : {}),
    ...(p.text.trim() ? { text: p.text.trim() } : {}),
    sort: p.sort,
    direction: p.direction,
    limit: PAGE_SIZE,
    ...(p.cursor ? { cursor: p.cursor } : {}),
  };
}

export const hasFilters = (p: ListParams) => p.status.length > 0 || p.agentKind.length > 0 || p.text.trim() !== "";
