// Builds the engine ports for a loop from its stored definition.
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { createPorts } from "../agents/registry";
import { chainSecretResolvers, envSecretResolver } from "../agents/secret-resolver";
import { getDatabase } from "../db/database";
import { getSecretKey } from "../secrets/secret-key";
import { storeSecretResolver } from "../secrets/store-secret-resolver";
import { getEnv } from "../env";
import type { LoopForPorts } from "../jobs/runtime-deps";

export function workspaceFor(loopId: string, configured: unknown, dataDir: string): string {
  const dir = typeof configured === "string" && configured !== "" ? configured : resolve(dataDir, "workspaces", loopId);
  mkdirSync(dir, { recursive: true });
  return dir;
}

// `{ secret }` refs from the encrypted store (decrypted only here, when an
// executor asks), `{ env }` refs from the server environment.
const secrets = chainSecretResolvers(storeSecretResolver(getDatabase, getSecretKey), envSecretResolver);

export function createLoopPorts(loop: LoopForPorts) {
  const config = (loop.config ?? {}) as { agent?: unknown; scorers?: unknown[]; verifier?: unknown; reflector?: unknown; workspace?: unknown };
  const dataDir = getEnv().RALPH_DATA_DIR;
  return createPorts(
    { agent: config.agent, scorers: config.scorers ?? [], verifier: config.verifier, reflector: config.reflector },
    { workspaceDir: (id) => workspaceFor(id, config.workspace, dataDir), secrets },
    loop.id,
  );
}
