// A loop's detail never goes back while it runs. The loop page moves its
// store (`loops.byId`) forward from each iteration's event; a refetch that
// was read before that event answers after it with an older iteration, and
// the header, list and charts stepped back an iteration (seen in
// e2e/dashboard-truth.spec.ts). Such an answer is dropped: the next event or
// the page's slow refresh brings a newer one.

type LoopDetailLike = { loop: { id: unknown; iteration: unknown; status: unknown } };

const isLoopDetail = (v: unknown): v is LoopDetailLike => {
  const loop = (v as { loop?: unknown } | null)?.loop as Record<string, unknown> | undefined;
  return typeof loop === "object" && loop !== null && typeof loop.iteration === "number" && "status" in loop;
};

/** `prev` when `next` is the same running loop at an earlier iteration, else `next`. */
export function keepNewerLoop(prev: unknown, next: unknown): unknown {
  if (!isLoopDetail(prev) || !isLoopDetail(next)) return next;
  const [a, b] = [prev.loop, next.loop];
  const stale =
    a.id === b.id &&
    a.status === "running" &&
    b.status === "running" &&
    (b.iteration as number) < (a.iteration as number);
  return stale ? prev : next;
}
