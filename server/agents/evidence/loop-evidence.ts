/**
 * A loop's graded evidence, held by the server: what is protected (derived
 * from the checks on the base commit, plus the operator's globs, minus what
 * the operator removed), the base commit as first recorded, the baseline
 * inventory of each check, and the clean grading tree each check runs in.
 * The record lives under the data folder (hidden from the agent's sandbox),
 * so a moved baseline ref or a replaced .git cannot change what is graded.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { git } from "../git/git-cli";
import { baselineRef, shortLoopId } from "../git/git-workspace";
import type { LoopGitWorkspace } from "../git/loop-workspace";
import { readEnvironmentRecord, setupOutputsPath } from "../git/workspace-environment-record";
import { gradingTree } from "./grading-tree";
import { applyHeldOut } from "./held-out";
import type { BaselineInventory } from "./inventory-grade";
import { derivedProtection, protectedEntries, type CheckCommand, type ProtectedEntry } from "./protected-set";
import { testRunMarkers } from "./test-markers";

export interface EvidenceRecord {
  /** The base commit graded against (a fork's: its source loop's). */
  baselineSha: string;
  /** What the loop's own baseline ref pointed at when recorded (a moved ref is tampering). */
  ownRefSha?: string;
  protection: ProtectedEntry[];
  baselines: Record<string, BaselineInventory>;
  /** Iterations whose grading found tampering (repeated tampering raises an alert). */
  tamperedIterations?: number[];
}

export interface Tampering {
  /** What was touched: a file, a ref, `.git`. */
  what: string;
  /** What it was, for people. */
  how: string;
}

export interface GradingContext {
  dir: string;
  /** The commit graded (the iteration's snapshot). */
  sha: string;
  baselineSha: string;
  entries: ProtectedEntry[];
  tampering: Tampering[];
  /** New test files under protected paths, left out of the graded tree (allowed, not graded). */
  notGraded: string[];
}

export interface EvidenceSettings {
  checks: CheckCommand[];
  /** The operator's protected globs. */
  operator: readonly string[];
  /** Derived or operator globs the operator took off the list. */
  unprotected: readonly string[];
  /** Derive protection from the checks (on by default). */
  derive: boolean;
}

export interface LoopEvidence {
  protection(loopId: string): Promise<ProtectedEntry[]>;
  /** The clean tree of the iteration's snapshot for check `key` (held-out files added), and what the agent tampered with. */
  grade(loopId: string, key: string, heldOut?: string): Promise<GradingContext>;
  /** The tree of the base commit as it is, held-out files added (the baseline run). */
  baselineTree(loopId: string, key: string, heldOut?: string): Promise<string>;
  baseline(loopId: string, key: string): Promise<BaselineInventory | null>;
  saveBaseline(loopId: string, key: string, inventory: BaselineInventory): Promise<void>;
  /** Records that `iteration` tampered; returns how many iterations have. */
  noteTampering(loopId: string, iteration: number): Promise<number>;
  /** Runs `fn` alone among this loop's git work (checks score in parallel; git takes one index lock). */
  exclusive<T>(loopId: string, fn: () => Promise<T>): Promise<T>;
}

const slug = (key: string) => key.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 60) || "check";

export function loopEvidence(opts: {
  git: LoopGitWorkspace;
  worktreesDir: string;
  settings: EvidenceSettings;
  /** Where held-out checks' files live (RALPH_DATA_DIR/held-out). */
  heldOutRoot?: string;
  /** A fork: the loop whose base commit it is graded against. */
  baseLoop?: string;
}): LoopEvidence {
  // What .worktreeinclude brought into the loop's worktree, as recorded before the agent ran.
  const included = (loopId: string) => readEnvironmentRecord(opts.worktreesDir, loopId)?.included ?? [];
  // The check's trees: the included paths from the user's checkout they came from, what the setup installed
  // from the copy made before the agent ran (grading-tree.ts).
  const fromCheckout = (loopId: string) => {
    const record = readEnvironmentRecord(opts.worktreesDir, loopId);
    return {
      included: record?.included ?? [],
      ...(record?.includedFrom ? { includedFrom: record.includedFrom } : {}),
      ...(record?.setupOutputs && record.setupOutputs.length > 0
        ? { setupOutputs: record.setupOutputs, setupFrom: setupOutputsPath(opts.worktreesDir, loopId) }
        : {}),
    };
  };
  const recordPath = (loopId: string) => resolve(opts.worktreesDir, ".evidence", `${shortLoopId(loopId)}.json`);
  const treeDir = (loopId: string, key: string) =>
    resolve(opts.worktreesDir, ".grading", shortLoopId(loopId), slug(key));
  const records = new Map<string, Promise<EvidenceRecord>>();
  // Checks score in parallel; their trees share one repository's worktree list and index locks.
  const queues = new Map<string, Promise<unknown>>();
  const serial = <T>(loopId: string, fn: () => Promise<T>): Promise<T> => {
    const next = (queues.get(loopId) ?? Promise.resolve()).then(fn, fn);
    queues.set(
      loopId,
      next.catch(() => undefined),
    );
    return next;
  };

  const write = (loopId: string, record: EvidenceRecord) => {
    const path = recordPath(loopId);
    mkdirSync(resolve(path, ".."), { recursive: true });
    writeFileSync(`${path}.tmp`, JSON.stringify(record));
    renameSync(`${path}.tmp`, path);
  };

  /** The base commit of loop `source` as its own record holds it (else its baseline ref). */
  async function baseOf(source: string, repoDir: string): Promise<string> {
    const path = recordPath(source);
    if (existsSync(path)) return (JSON.parse(readFileSync(path, "utf8")) as EvidenceRecord).baselineSha;
    return (await git(repoDir, ["rev-parse", `${baselineRef(source)}^{commit}`])).trim();
  }

  async function makeRecord(loopId: string): Promise<EvidenceRecord> {
    const path = recordPath(loopId);
    if (existsSync(path)) return JSON.parse(readFileSync(path, "utf8")) as EvidenceRecord;
    const ws = await opts.git.prepared(loopId);
    const baselineSha = opts.baseLoop ? await baseOf(opts.baseLoop, ws.dir) : ws.baselineSha;
    // Derived on the base commit's own files: what the agent leaves later cannot widen or narrow it.
    const dir = treeDir(loopId, "_base");
    await gradingTree({ repoDir: ws.dir, dir, sha: baselineSha, baselineSha, entries: [], included: included(loopId) });
    const derived = opts.settings.derive ? derivedProtection(opts.settings.checks, dir) : [];
    const record: EvidenceRecord = {
      baselineSha,
      ownRefSha: ws.baselineSha,
      protection: protectedEntries({
        operator: opts.settings.operator,
        derived,
        removed: opts.settings.unprotected,
      }),
      baselines: {},
    };
    write(loopId, record);
    return record;
  }

  const record = (loopId: string) => {
    let p = records.get(loopId);
    if (!p) {
      p = makeRecord(loopId);
      p.catch(() => records.delete(loopId));
      records.set(loopId, p);
    }
    return p;
  };

  return {
    exclusive: serial,
    noteTampering: (loopId, iteration) =>
      serial(loopId, async () => {
        const rec = await record(loopId);
        const seen = new Set(rec.tamperedIterations ?? []);
        if (!seen.has(iteration)) {
          seen.add(iteration);
          rec.tamperedIterations = [...seen].sort((a, b) => a - b).slice(-100);
          write(loopId, rec);
        }
        return seen.size;
      }),
    protection: async (loopId) => (await record(loopId)).protection,
    async baselineTree(loopId, key, heldOut) {
      const rec = await record(loopId);
      const ws = await opts.git.prepared(loopId);
      const dir = treeDir(loopId, key);
      await serial(loopId, () =>
        gradingTree({
          repoDir: ws.dir,
          dir,
          sha: rec.baselineSha,
          baselineSha: rec.baselineSha,
          entries: [],
          ...fromCheckout(loopId),
        }),
      );
      if (heldOut) await applyHeldOut(dir, opts.heldOutRoot, heldOut);
      return dir;
    },
    baseline: async (loopId, key) => (await record(loopId)).baselines[key] ?? null,
    async saveBaseline(loopId, key, inventory) {
      const rec = await record(loopId);
      rec.baselines[key] = inventory;
      write(loopId, rec);
    },
    async grade(loopId, key, heldOut) {
      const rec = await record(loopId);
      const ws = await opts.git.prepared(loopId);
      const base = rec.baselineSha;
      const tampering: Tampering[] = opts.git.gitTampering(loopId).map((how) => ({ what: ".git", how }));
      const refNow = (
        await git(ws.dir, ["rev-parse", "--verify", "--quiet", `${baselineRef(loopId)}^{commit}`], {
          allowFail: true,
        })
      ).trim();
      const ownRef = rec.ownRefSha ?? base;
      if (refNow !== ownRef)
        tampering.push({
          what: baselineRef(loopId),
          how: `the baseline ref ${refNow ? `points at ${refNow.slice(0, 12)}` : "is gone"} (recorded ${ownRef.slice(0, 12)}); graded against the recorded base ${base.slice(0, 12)}`,
        });
      const sha = await opts.git.currentSnapshot(loopId);
      const mergeBase = (await git(ws.dir, ["merge-base", base, sha], { allowFail: true })).trim();
      const descends = sha === base || mergeBase === base;
      if (!descends)
        tampering.push({ what: "history", how: `the graded commit does not descend from the base ${base}` });
      const entries = rec.protection;
      const tree = await serial(loopId, () =>
        gradingTree({
          repoDir: ws.dir,
          dir: treeDir(loopId, key),
          sha,
          baselineSha: base,
          entries,
          ...fromCheckout(loopId),
        }),
      );
      for (const file of tree.restored)
        tampering.push({
          what: file,
          how: "protected file changed or deleted; put back to the base commit for grading",
        });
      for (const [file, fields] of Object.entries(tree.fields))
        tampering.push({
          what: file,
          how: `test fields changed (${fields.join(", ")}); put back to the base commit for grading`,
        });
      const hooks = new Set(tree.hooks);
      for (const file of tree.removed.filter((f) => hooks.has(f)))
        tampering.push({ what: file, how: "runner configuration or hook added; removed for grading" });
      if (heldOut) await applyHeldOut(tree.dir, opts.heldOutRoot, heldOut);
      const globs = entries.map((e) => e.glob);
      for (const hit of await testRunMarkers(ws.dir, base, sha, globs))
        tampering.push({ what: hit.file, how: `code reads the test run's environment (${hit.marker}): ${hit.line}` });
      return {
        dir: tree.dir,
        sha,
        baselineSha: base,
        entries,
        tampering,
        notGraded: tree.removed.filter((f) => !hooks.has(f)),
      };
    },
  };
}

/** Where a loop's evidence record and grading trees live (for removal with the loop's worktree). */
export const evidencePaths = (worktreesDir: string, loopId: string) => ({
  record: join(worktreesDir, ".evidence", `${shortLoopId(loopId)}.json`),
  trees: join(worktreesDir, ".grading", shortLoopId(loopId)),
});

/** A loop's evidence record as stored, for reading (null until its first graded run). */
export function readEvidenceRecord(worktreesDir: string, loopId: string): EvidenceRecord | null {
  const path = evidencePaths(worktreesDir, loopId).record;
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as EvidenceRecord;
  } catch {
    return null;
  }
}
