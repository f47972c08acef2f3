// Resolves `{ secret: "<id or name>" }` references from the encrypted store.
// Called by executors at run time only; the plaintext lives in the adapter's
// memory for the call and is scrubbed from anything the adapter emits. The
// secret's scope is checked against the loop's creator and the use first:
// a loop created before an admin narrowed the scope stops using it.
import { AgentError } from "../agents/agent-error";
import type { SecretResolver } from "../agents/secret-resolver";
import type { Database } from "../db/client";
import { sealedSecret } from "../db/secrets.repo";
import { openSecret, type SecretKey } from "./secret-box";
import { scopeFromRow, scopeViolation, type SecretUse } from "./secret-scope";

type Role = SecretUse["role"];

/**
 * `role` is who the loop acts for (its creator's current role); without it
 * (tools and tests that build ports by hand) the role counts as admin, and
 * the kind and host checks still apply.
 */
export function storeSecretResolver(
  db: () => Database,
  key: () => SecretKey,
  role?: () => Promise<Role>,
): SecretResolver {
  return {
    async resolve(ref, use) {
      if (!("secret" in ref)) return undefined;
      const row = await sealedSecret(db().prisma, ref.secret);
      if (!row) return undefined;
      const actingRole = role ? await role() : "admin";
      const violation = scopeViolation(row.name, scopeFromRow(row), { ...use, role: actingRole });
      if (violation) throw new AgentError("config", violation, { retryable: false });
      return openSecret(key(), row.id, row.ciphertext);
    },
  };
}
