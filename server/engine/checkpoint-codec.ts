/**
 * How a checkpoint is stored (format 2). The stored text keeps only what a
 * restore needs: the snapshot, the checkpoint's id, time and seal.
 * - The CD header (execution, context, metrics, recovery) is derived from the
 *   snapshot, so it is derived again on decode instead of being stored.
 * - Large parts that change seldom between checkpoints (the config, the goal,
 *   each reflection, each verifier verdict, ...) are cited by the SHA-256 of
 *   their canonical JSON; the caller stores each distinct part once per loop.
 * - The last output, which its iteration's row already holds verbatim, is cited
 *   by that row when the caller names it.
 * The seal stays format 1's: the hash of the whole checkpoint, checked on the
 * checkpoint as rebuilt, so a part or a cited output that changed fails it.
 * Text without a `format` member is a format-1 checkpoint and decodes as itself.
 */
import { canonicalText, digestOf } from "./checkpoint-memo";
import { WORK_TRIM_STEP } from "./list-bounds";
import { checkpointHeader, CheckpointIntegrityError, type Checkpoint, type Sha256 } from "./checkpoint";

export const CHECKPOINT_FORMAT = 2;
/** Below this many characters of canonical JSON a part stays inline: a citation costs about 80. */
export const PART_MIN_CHARS = 256;

export interface CheckpointPart {
  hash: string;
  body: string;
}

type Path = (string | number)[];

interface StoredForm {
  format: 2;
  id: string;
  createdAt: number;
  hash: string;
  snapshot: Record<string, unknown>;
  /** [path in the snapshot, part hash]; the snapshot holds null there. */
  parts: [Path, string][];
  /** [path in the snapshot, its runs]; the snapshot holds null there. */
  lists?: [Path, Segment[]][];
  /** Cited last output: the row that holds it and its SHA-256; the snapshot holds "" there. */
  output?: { row: string; sha256: string };
}

export interface EncodedCheckpoint {
  /** The row's text. */
  state: string;
  /** The parts this checkpoint cites that are not in `stored`: to be stored with it, unless present. */
  parts: CheckpointPart[];
  /** Every part hash it cites. */
  cites: string[];
}

export interface EncodeOptions {
  sha256: Sha256;
  /** The id of the iteration row that holds `snapshot.last.output` verbatim; the output is inlined without one. */
  outputRow?: string | null;
  /** Hashes of the loop's parts already stored: not returned again. */
  stored?: ReadonlySet<string>;
}

/** What a stored checkpoint cites, for the caller to read before decoding. */
export interface Citations {
  parts: string[];
  outputRow: string | null;
}

export interface CitedSources {
  /** A part's body by hash; undefined when it is missing. */
  part: (hash: string) => string | undefined;
  /** The cited row's output; undefined when the row is missing. */
  output: (row: string) => string | undefined;
}

/** Whole values that can be a part, in a fixed order. */
function partPaths(snapshot: Record<string, unknown>): Path[] {
  const paths: Path[] = [["config"], ["goal"], ["work", "testResults"], ["inbox"]];
  if (snapshot.plan) paths.push(["plan", "continuation"], ["plan", "tests"], ["plan", "feedback"]);
  return paths;
}

/**
 * Lists that grow at their end (and may be trimmed at their start): stored as
 * runs of items. An item with an `iteration` falls in the run of its
 * iteration (8 iterations a run), any other in the run of its index (32 items
 * a run). A run between the first and the last is complete and never changes:
 * it becomes a part, stored once; the first (trimmed) and the last (growing)
 * stay inline, since a part for them would be a new one at every checkpoint.
 * Lists without iterations are trimmed in whole runs (list-bounds.ts), so their
 * later runs keep their items, and their parts, when the front is dropped.
 */
const LIST_PATHS: Path[] = [
  ["state", "reflectionHistory"],
  ["verifications"],
  ["ledger", "recent"],
  ["work", "completed"],
  ["work", "decisions"],
  ["work", "assumptions"],
  ["work", "constraints"],
];

type Segment = { part: string } | { items: unknown[] };

function runsOf(items: unknown[]): unknown[][] {
  const runs: unknown[][] = [];
  let key: number | null = null;
  items.forEach((item, index) => {
    const iteration = (item as { iteration?: unknown } | null)?.iteration;
    const k = typeof iteration === "number" ? Math.floor(iteration / 8) : Math.floor(index / WORK_TRIM_STEP);
    if (k !== key || runs.length === 0) runs.push([]);
    key = k;
    runs.at(-1)!.push(item);
  });
  return runs;
}

function getAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** A copy of `root` with `value` at `path`, copying only the containers along it. */
function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path as [string | number, ...Path];
  const container = root as Record<string | number, unknown>;
  const copy = (Array.isArray(container) ? [...container] : { ...container }) as Record<string | number, unknown>;
  copy[key] = setAt(container[key], rest, value);
  return copy;
}

/** An array item's canonical text (what JSON writes for an item it cannot encode: null). */
function itemText(item: unknown): string {
  return item === undefined || typeof item === "function" || typeof item === "symbol" ? "null" : canonicalText(item);
}

/** The stored text of a checkpoint built by `buildCheckpoint`, and the parts to store with it. */
export function encodeCheckpoint(checkpoint: Checkpoint, options: EncodeOptions): EncodedCheckpoint {
  let snapshot = checkpoint.snapshot as unknown as Record<string, unknown>;
  const cited: [Path, string][] = [];
  const parts = new Map<string, string>();
  for (const path of partPaths(snapshot)) {
    const value = getAt(snapshot, path);
    if (value === undefined || value === null) continue;
    const body = canonicalText(value);
    if (body.length < PART_MIN_CHARS) continue;
    const hash = digestOf(options.sha256, body);
    cited.push([path, hash]);
    if (!options.stored?.has(hash)) parts.set(hash, body);
    snapshot = setAt(snapshot, path, null) as Record<string, unknown>;
  }
  const lists: [Path, Segment[]][] = [];
  for (const path of LIST_PATHS) {
    const items = getAt(snapshot, path);
    if (!Array.isArray(items) || items.length === 0) continue;
    const runs = runsOf(items);
    const segments: Segment[] = runs.map((run, i) => {
      // Item by item, every run: items are the same objects from one checkpoint to the next (a list only
      // grows and is trimmed), so their texts are remembered for the next checkpoint's hash and parts.
      const texts = run.map(itemText);
      if (i === 0 || i === runs.length - 1) return { items: run };
      const body = `[${texts.join(",")}]`;
      if (body.length < PART_MIN_CHARS) return { items: run };
      const hash = digestOf(options.sha256, body);
      cited.push([[...path, "*"], hash]);
      if (!options.stored?.has(hash)) parts.set(hash, body);
      return { part: hash };
    });
    if (segments.every((segment) => "items" in segment)) continue;
    lists.push([path, segments]);
    snapshot = setAt(snapshot, path, null) as Record<string, unknown>;
  }
  const output = checkpoint.snapshot.last.output;
  const citeOutput = options.outputRow != null && output !== "";
  if (citeOutput) snapshot = setAt(snapshot, ["last", "output"], "") as Record<string, unknown>;
  const stored: StoredForm = {
    format: CHECKPOINT_FORMAT,
    id: checkpoint.id,
    createdAt: checkpoint.metadata.createdAt,
    hash: checkpoint.hash,
    snapshot,
    parts: cited.filter(([path]) => path.at(-1) !== "*"),
    ...(lists.length ? { lists } : {}),
    ...(citeOutput ? { output: { row: options.outputRow!, sha256: options.sha256(output) } } : {}),
  };
  return {
    state: JSON.stringify(stored),
    parts: [...parts].map(([hash, body]) => ({ hash, body })),
    cites: [...new Set(cited.map(([, hash]) => hash))],
  };
}

const isStoredForm = (value: unknown): value is StoredForm =>
  typeof value === "object" && value !== null && (value as { format?: unknown }).format !== undefined;

/** What must be read to decode this stored checkpoint (nothing for format 1). */
export function citationsOf(stored: unknown): Citations {
  if (!isStoredForm(stored) || !Array.isArray(stored.parts)) return { parts: [], outputRow: null };
  const hashes: unknown[] = stored.parts.map((entry) => (Array.isArray(entry) ? entry[1] : undefined));
  for (const [, segments] of Array.isArray(stored.lists) ? stored.lists : [])
    for (const segment of Array.isArray(segments) ? segments : []) if ("part" in segment) hashes.push(segment.part);
  return {
    parts: [...new Set(hashes.filter((h): h is string => typeof h === "string"))],
    outputRow: typeof stored.output?.row === "string" ? stored.output.row : null,
  };
}

/**
 * The checkpoint a stored text holds, whole (format 1's shape), with its parts
 * and output put back. Its seal is left for `restoreFromCheckpoint` to check.
 */
export function decodeCheckpoint(stored: unknown, sources: CitedSources, sha256: Sha256): unknown {
  if (!isStoredForm(stored)) return stored;
  if (stored.format !== CHECKPOINT_FORMAT) {
    throw new CheckpointIntegrityError(`Unknown checkpoint format ${JSON.stringify(stored.format)}`);
  }
  if (!Array.isArray(stored.parts) || typeof stored.snapshot !== "object" || stored.snapshot === null) {
    throw new CheckpointIntegrityError("Malformed checkpoint: its parts or snapshot are missing");
  }
  let snapshot: unknown = stored.snapshot;
  for (const [path, hash] of stored.parts) {
    const body = sources.part(hash);
    if (body === undefined) throw new CheckpointIntegrityError(`Checkpoint part ${hash} is missing`);
    snapshot = setAt(snapshot, path, JSON.parse(body));
  }
  for (const [path, segments] of stored.lists ?? []) {
    const items = segments.flatMap((segment) => {
      if (!("part" in segment)) return segment.items;
      const body = sources.part(segment.part);
      if (body === undefined) throw new CheckpointIntegrityError(`Checkpoint part ${segment.part} is missing`);
      return JSON.parse(body) as unknown[];
    });
    snapshot = setAt(snapshot, path, items);
  }
  if (stored.output) {
    const output = sources.output(stored.output.row);
    if (output === undefined)
      throw new CheckpointIntegrityError(`The iteration ${stored.output.row} it cites is missing`);
    if (sha256(output) !== stored.output.sha256) {
      throw new CheckpointIntegrityError(`The output of iteration ${stored.output.row} was altered`);
    }
    snapshot = setAt(snapshot, ["last", "output"], output);
  }
  return { ...checkpointHeader(snapshot as Checkpoint["snapshot"], stored.id, stored.createdAt), hash: stored.hash };
}
