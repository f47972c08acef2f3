// Random, malformed and hostile requests for the tRPC endpoint, built with
// fast-check. Inputs are shaped after the procedures' own zod schemas (their
// field names) so a good share of them pass validation and reach resolvers
// and the database, with strings that carry NUL, lone surrogates, SQL/LIKE
// metacharacters, huge lengths and superjson `meta` that tries prototype
// pollution or unknown classes.
import fc from "fast-check";
import { appRouter } from "../server/api/root";

export const FUZZ_HOST = "fuzz.test";
export const FUZZ_ORIGIN = `http://${FUZZ_HOST}`;

/** Fixed unless RALPH_FUZZ_SEED says otherwise; printed so a failure can be replayed. */
export const fuzzSeed = () => Number(process.env.RALPH_FUZZ_SEED ?? 1313);
/** Wall-clock budget per provider. CI runs the default; RALPH_FUZZ_MS shortens or lengthens it. */
export const fuzzBudgetMs = () => Number(process.env.RALPH_FUZZ_MS ?? 50_000);

interface ProcedureInfo {
  path: string;
  type: "query" | "mutation" | "subscription";
}

type Procedures = Record<string, { _def: { type: ProcedureInfo["type"]; inputs: unknown[] } }>;
const procedureMap = () => (appRouter as unknown as { _def: { procedures: Procedures } })._def.procedures;

export const procedures = (): ProcedureInfo[] =>
  Object.entries(procedureMap()).map(([path, p]) => ({ path, type: p._def.type }));

/** Every object key the procedures' zod input schemas name (zod 4 keeps its definition in `_zod.def`). */
export function inputFieldNames(): string[] {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: unknown, depth: number) => {
    if (!node || typeof node !== "object" || seen.has(node) || depth > 12) return;
    seen.add(node);
    const def = (node as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    const target = def ?? (node as Record<string, unknown>);
    if (def?.shape && typeof def.shape === "object") for (const key of Object.keys(def.shape)) names.add(key);
    for (const value of Object.values(target)) {
      if (Array.isArray(value)) value.forEach((item) => walk(item, depth + 1));
      else walk(value, depth + 1);
    }
  };
  for (const p of Object.values(procedureMap())) p._def.inputs.forEach((input) => walk(input, 0));
  return [...names].sort();
}

const anyUtf16 = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  maxLength: 30,
});

export function hostileString(known: string[]) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 2, arbitrary: anyUtf16 },
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "",
        " ",
        "\0",
        "before\0after",
        "\uD800",
        "x\uDFFFy",
        "\uFFFF",
        "__proto__",
        "constructor",
        "' OR 1=1 --",
        "%",
        "_",
        "\\",
        "<script>alert(1)</script>",
        "```\n# injected",
        "viewer",
        "operator",
        "admin",
        "command",
        "running",
        "a@b.c",
        "NaN",
        "-1",
        "1e309",
        "99999999999999999999",
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 100_000 }).map((n) => "A".repeat(n)) },
  );
}

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.integer({ min: -3, max: 200 }),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1, 2 ** 31, 2 ** 53, 2 ** 63, 1e308, Number.MAX_SAFE_INTEGER + 2, 0.5),
);

export function inputValue(fields: string[], known: string[]) {
  const leaf = fc.oneof(
    { weight: 4, arbitrary: hostileString(known) },
    { weight: 3, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("value"), { maxLength: 5 }),
      fc.dictionary(fc.constantFrom(...fields), tie("value"), { maxKeys: 6 }),
    ),
  }));
  return fc.oneof(
    { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...fields), value, { minKeys: 1, maxKeys: 8 }) },
    { weight: 1, arbitrary: value },
    { weight: 1, arbitrary: fc.constant(undefined) },
    // Oversized arrays where a field wants a list.
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...fields),
          fc.integer({ min: 20, max: 5000 }),
          fc.oneof(fc.nat(), fc.string({ maxLength: 8 })),
        )
        .map(([key, n, item]) => ({ [key]: Array.from({ length: n }, () => item) })),
    },
  );
}

/** superjson `meta`: usually none, sometimes honest, sometimes hostile. */
const superjsonMeta = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      { values: { "__proto__.x": ["undefined"] } },
      { values: { a: ["class", "Foo"] } },
      { values: { "": ["custom", "Nope"] } },
      { values: ["Date"] },
      { values: "bigint" },
      { referentialEqualities: { "": ["__proto__.polluted"] } },
      { referentialEqualities: { a: ["constructor.prototype.x"] } },
      { values: { "constructor.prototype.polluted": ["undefined"] } },
      { values: { a: [["class", "Foo"], { b: ["symbol", "x"] }] } },
      null,
      "meta",
      [],
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      values: fc.dictionary(
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("id", "loopId", "limit", "patch", "__proto__")),
        fc.oneof(
          fc.constantFrom("undefined", "bigint", "Date", "regexp", "set", "map", "number", "symbol", "Error", "URL"),
          fc.tuple(fc.constantFrom("class", "custom", "symbol", "typed-array"), fc.string({ maxLength: 12 })),
        ),
        { maxKeys: 3 },
      ),
    }),
  },
);

/** Identifies a request, so a run sends each distinct one once (fast-check may draw the same one again). */
export const fuzzKey = (r: FuzzRequest) => `${r.who} ${r.method} ${r.path}${r.query} ${r.body ?? ""}`;

/** The procedures a request names (single or batched path), for the coverage check. */
export function procedurePaths(r: FuzzRequest): string[] {
  return r.path.split(",").flatMap((part) => {
    try {
      return [decodeURIComponent(part)];
    } catch {
      return [];
    }
  });
}

export interface FuzzRequest {
  who: "anonymous" | "viewer" | "operator" | "admin" | "bogus-bearer";
  method: "GET" | "POST" | "PUT";
  /** The part after /api/trpc/. */
  path: string;
  query: string;
  body?: string;
}

/** URL-encodes; a lone surrogate (which cannot be percent-encoded) becomes U+FFFD first. */
const enc = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDFFF]/gu, "\uFFFD"));

const encode = (input: unknown, meta: unknown) =>
  JSON.stringify(meta === undefined ? { json: input } : { json: input, meta });

/** A tRPC HTTP request: single or batched, well-formed or broken. */
export function fuzzRequest(opts: { known: string[]; skip: (path: string) => boolean }) {
  const all = procedures().filter((p) => !opts.skip(p.path));
  const fields = inputFieldNames();
  const input = inputValue(fields, opts.known);
  const who = fc.constantFrom<FuzzRequest["who"]>("anonymous", "viewer", "operator", "admin", "admin", "bogus-bearer");
  const procedure = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...all) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(hostileString(opts.known), fc.constantFrom("loops", "loops.controls", "__proto__.x"))
        .map((path) => ({ path, type: "query" as const })),
    },
  );
  const call = fc.record({ procedure, input, meta: superjsonMeta });
  const rawBody = fc.oneof(
    fc.constantFrom("", "null", "[]", "{}", '{"json":', "\0", "1e999", '{"0":null}', '{"json":{"__proto__":{"x":1}}}'),
    fc.string({ maxLength: 60 }),
    fc.integer({ min: 1, max: 20_000 }).map((n) => "[".repeat(n) + "]".repeat(n)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  );

  const single = fc
    .record({ who, call, raw: fc.option(rawBody, { freq: 6 }) })
    .map(({ who, call, raw }): FuzzRequest => {
      const { path, type } = call.procedure;
      const payload = raw ?? encode(call.input, call.meta);
      if (type === "mutation" || raw !== null)
        return { who, method: "POST", path: enc(path), query: "", body: payload };
      return { who, method: "GET", path: enc(path), query: `?input=${enc(payload)}` };
    });
  const batch = fc
    .record({ who, calls: fc.array(call, { minLength: 1, maxLength: 60 }), post: fc.boolean() })
    .map(({ who, calls, post }): FuzzRequest => {
      const path = calls.map((c) => enc(c.procedure.path)).join(",");
      const payload = JSON.stringify(
        Object.fromEntries(calls.map((c, i) => [i, c.meta === undefined ? { json: c.input } : c])),
      );
      return post
        ? { who, method: "POST", path, query: "?batch=1", body: payload }
        : { who, method: "GET", path, query: `?batch=1&input=${enc(payload)}` };
    });
  const oddity = fc
    .record({
      who,
      path: fc.oneof(hostileString(opts.known), fc.constantFrom("%E0%A4%A", "%00", "..%2F..%2Fetc", "a".repeat(5000))),
      query: fc.constantFrom("", "?input=", "?input=%7B", "?batch=1", "?batch=1&input=[]", "?batch=abc", "?input=%FF"),
      method: fc.constantFrom<FuzzRequest["method"]>("GET", "POST", "PUT"),
      body: rawBody,
    })
    .map((r): FuzzRequest => ({ ...r, path: enc(r.path), body: r.method === "GET" ? undefined : r.body }));

  // Sent as they are, not encoded: percent-escapes that do not decode (issue 32's `GET /api/trpc/%`),
  // alone or around a real procedure's name.
  const malformed = fc
    .record({
      who,
      path: fc.oneof(
        fc.constantFrom("%", "%E0%A4%A", "%zz", "%%", "%C3", "%u0041", "%E0%A4%A,%"),
        fc
          .record({ p: fc.constantFrom(...all), escape: fc.constantFrom("%", "%E0%A4%A", "%G0", "%F0%9F") })
          .map(({ p, escape }) => `${enc(p.path)}${escape}`),
      ),
      query: fc.constantFrom("", "?input=%7B%7D", "?batch=1", "?batch=1&input=%7B%7D"),
      method: fc.constantFrom<FuzzRequest["method"]>("GET", "POST"),
    })
    .map((r): FuzzRequest => ({ ...r, body: r.method === "GET" ? undefined : "{}" }));

  return fc.oneof(
    { weight: 8, arbitrary: single },
    { weight: 2, arbitrary: batch },
    { weight: 1, arbitrary: oddity },
    { weight: 1, arbitrary: malformed },
  );
}

export function toRequest(r: FuzzRequest, auth: { cookies: Record<string, string> }, signal: AbortSignal): Request {
  const headers = new Headers({ host: FUZZ_HOST, origin: FUZZ_ORIGIN });
  if (r.method !== "GET") headers.set("content-type", "application/json");
  if (r.who === "bogus-bearer") headers.set("authorization", "Bearer rk_not-a-real-token");
  else if (r.who !== "anonymous") headers.set("cookie", auth.cookies[r.who]!);
  return new Request(`${FUZZ_ORIGIN}/api/trpc/${r.path}${r.query}`, {
    method: r.method,
    headers,
    body: r.body,
    signal,
  });
}
