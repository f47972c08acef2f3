// Resolves `{ secret: "<id or name>" }` references from the encrypted store.
// Called by executors at run time only; the plaintext lives in the adapter's
// memory for the call and is scrubbed from anything the adapter emits.
import type { SecretResolver } from "../agents/secret-resolver";
import type { Database } from "../db/client";
import { sealedSecret } from "../db/secrets.repo";
import { openSecret, type SecretKey } from "./secret-box";

export function storeSecretResolver(db: () => Database, key: () => SecretKey): SecretResolver {
  return {
    async resolve(ref) {
      if (!("secret" in ref)) return undefined;
      const row = await sealedSecret(db().prisma, ref.secret);
      return row ? openSecret(key(), row.id, row.ciphertext) : undefined;
    },
  };
}
