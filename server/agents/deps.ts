import type { PriceLookup } from "./pricing";
import type { SecretResolver } from "./secret-resolver";

/** What the registry needs from the runtime to build adapters. */
export interface AgentDeps {
  /** The per-loop workspace directory (created on first use). */
  workspaceDir(loopId: string): string;
  secrets: SecretResolver;
  /** Defaults to the bundled pricing table. */
  pricing?: PriceLookup;
  /** For AI SDK providers; defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
}
