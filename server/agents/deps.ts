import type { PermissionGate } from "./permission-server";
import type { LoopGitWorkspace } from "./git/loop-workspace";
import type { LoopEvidence } from "./evidence/loop-evidence";
import type { PriceLookup } from "./pricing";
import type { SecretRedactor } from "./redact";
import type { IsolationSettings } from "./sandbox/isolation";
import type { ProcessGroupRecord } from "./process-identity";
import type { SecretResolver } from "./secret-resolver";

/** Spend an agent reported before it finished (kept so a crash does not lose it). */
export interface ReportedSpend {
  input: number;
  output: number;
  cache: number;
  costUsd: number;
}

/**
 * Told about the agent process of the iteration in flight, so it can be
 * recorded: after a crash the next owner kills what is left of it and counts
 * what it had spent.
 */
export interface AgentTracker {
  started(loopId: string, iteration: number, group: ProcessGroupRecord): void;
  spent(loopId: string, iteration: number, spend: ReportedSpend): void;
  /** The process group ended (its lifeline killed what was left); nothing more comes for this iteration. */
  finished?(loopId: string, iteration: number): void;
  /**
   * Where the spawn helper spools this iteration's agent output if the server dies before its attempt is
   * stored (spend-spool.ts); undefined: not spooled.
   */
  spoolFile?(loopId: string, iteration: number): string | undefined;
}

/** What the registry needs from the runtime to build adapters. */
export interface AgentDeps {
  /** The per-loop workspace directory (created on first use; a git working tree for stored loops). */
  workspaceDir(loopId: string): string | Promise<string>;
  /** Snapshots and protected-evidence guard when the workspace is under version control. */
  git?: LoopGitWorkspace;
  /** Grading from a clean tree against the baseline inventory (with `git`). */
  evidence?: LoopEvidence;
  secrets: SecretResolver;
  /** Defaults to the bundled pricing table. */
  pricing?: PriceLookup;
  /** For AI SDK providers (tests); the SSRF guard's URL check still applies. Defaults to a guarded fetch. */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
  /** Loopback or private hosts outbound calls may reach (RALPH_AGENT_ALLOW_HOSTS). Default: none. */
  allowHosts?: readonly string[];
  /** Sandbox settings for processes; defaults to the server's (RALPH_AGENT_SANDBOX, RALPH_DATA_DIR, ...). */
  isolation?: IsolationSettings;
  /** Secret values every adapter of the loop scrubs from what it returns. */
  redactor?: SecretRedactor;
  /** Records the in-flight agent process (crash recovery). */
  tracker?: AgentTracker;
  /** Asks the operator about a tool call Claude Code's permission policy watches (permission-server.ts). */
  permissions?: PermissionGate;
}
