// "Test the check now" on the New-loop form: which runner a command check
// will detect in a workspace and which report it will read, and one real
// run of the check there. The workspace must already exist: nothing here
// creates folders in an operator's project.
import { existsSync, statSync } from "node:fs";
import { isAbsolute, resolve, sep } from "node:path";
import { runCommandCheck } from "../agents/command-check.scorer";
import { planCheck } from "../agents/command-check/plan";
import { type CommandCheckScorerConfig, commandCheckScorerSchema } from "../agents/scorer.schema";
import { chainSecretResolvers, envSecretResolver, type SecretResolver } from "../agents/secret-resolver";
import { RUNNERS } from "../agents/test-runners/runners";
import { getDatabase } from "../db/database";
import type { Database } from "../db/client";
import { invalidInput } from "../errors";
import { getSecretKey } from "../secrets/secret-key";
import { storeSecretResolver } from "../secrets/store-secret-resolver";
import { WorkspaceEnvironmentError } from "../agents/git/worktree-include";
import { inLoopPlace, type CheckPlace } from "./check-worktree";
import { setupOf } from "./loop-environment";
import { assertLoopPolicy } from "./loop-policy.service";
import type { ActingAs } from "./loop-services";

/** A preview run answers a person waiting on the page: it never runs longer than this. */
export const PREVIEW_TIMEOUT_SECONDS = 300;

/** The secrets a preview may use: the store's, within the acting role's scope, then the server's environment. */
export function previewSecrets(acting: ActingAs): SecretResolver {
  const role = acting.actor.role;
  return chainSecretResolvers(
    storeSecretResolver(getDatabase, getSecretKey, async () => role),
    envSecretResolver,
  );
}

/** Runs a check in a place from inLoopPlace as the loop's first check would, for at most PREVIEW_TIMEOUT_SECONDS. */
export function runPreviewCheck(
  config: CommandCheckScorerConfig,
  place: CheckPlace,
  secrets: SecretResolver,
  signal?: AbortSignal,
) {
  const timeoutSeconds =
    config.timeoutSeconds === 0 ? PREVIEW_TIMEOUT_SECONDS : Math.min(config.timeoutSeconds, PREVIEW_TIMEOUT_SECONDS);
  return runCommandCheck(
    { ...config, timeoutSeconds },
    { secrets, workspaceDir: () => place.dir },
    {
      loopId: place.runId,
      workspace: place.dir,
      extraEnv: { RALPH_WORKSPACE: place.dir },
      ...(signal ? { signal } : {}),
    },
  );
}

export interface CheckPreviewInput {
  workspace: string;
  check: unknown;
  /** The loop's isolation and setup: the check runs where the loop's first check will. */
  isolation?: "worktree" | "in-place";
  setup?: unknown;
}

function existingDir(path: string, what: string): string {
  if (!existsSync(path) || !statSync(path).isDirectory()) throw invalidInput(`${what} ${path} does not exist`);
  return path;
}

function resolveInput(input: CheckPreviewInput): { config: CommandCheckScorerConfig; workspace: string; cwd: string } {
  const workspace = input.workspace.trim();
  if (workspace === "")
    throw invalidInput("Set the workspace to the project's directory first: an empty workspace is a new, empty folder");
  if (!isAbsolute(workspace)) throw invalidInput("The workspace must be an absolute path");
  const parsed = commandCheckScorerSchema.safeParse(input.check);
  if (!parsed.success) throw invalidInput(`The check is not valid: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const root = existingDir(resolve(workspace), "The workspace");
  const cwd = resolve(root, parsed.data.cwd);
  if (cwd !== root && !cwd.startsWith(root + sep)) throw invalidInput("The working directory is outside the workspace");
  return { config: parsed.data, workspace: root, cwd: existingDir(cwd, "The working directory") };
}

export function describeCheck(input: CheckPreviewInput) {
  const { config, cwd } = resolveInput(input);
  const planned = planCheck(config, cwd, (name) => `<temp-dir>/${name}`, {});
  const runner = planned.runner ? RUNNERS[planned.runner] : null;
  return {
    runner: runner ? { id: runner.id, label: runner.label, needs: runner.needs } : null,
    via: planned.detection?.via ?? null,
    argv: planned.argv,
    env: planned.env,
    report: planned.describe,
    note:
      [planned.substituted && `${planned.substituted[0]!.toUpperCase()}${planned.substituted.slice(1)}.`, planned.note]
        .filter(Boolean)
        .join(" ") || null,
  };
}

/**
 * Runs the check as an iteration of a loop made by this actor would: the same
 * policy (workspace roots, sandbox, secret scopes for the actor's role), the
 * same sandbox, secrets resolved within the actor's scope.
 */
export async function runCheckOnce(db: Database, input: CheckPreviewInput, acting: ActingAs, signal?: AbortSignal) {
  const { config, workspace } = resolveInput(input);
  const setup = setupOf({ setup: input.setup });
  await assertLoopPolicy(
    db,
    {
      workspace,
      agent: null,
      scorers: [config],
      verifier: { kind: "none" },
      reflector: { kind: "rule-based" },
      ...(setup ? { setup } : {}),
    },
    acting,
  );
  const secrets = previewSecrets(acting);
  const started = Date.now();
  return inLoopPlace(
    {
      workspace,
      isolation: input.isolation ?? "worktree",
      setup: setup ?? null,
      deps: { secrets },
      ...(signal ? { signal } : {}),
    },
    async (place) => {
      const result = await runPreviewCheck(config, place, secrets, signal);
      return {
        score: result.score,
        reason: result.reason ?? "",
        tests: result.tests ?? null,
        durationMs: Date.now() - started,
        ranIn: place.kind,
        note: place.note,
      };
    },
  ).catch((error: unknown) => {
    if (error instanceof WorkspaceEnvironmentError)
      throw invalidInput(`The loop's worktree cannot be prepared: ${error.message}`);
    throw error;
  });
}
