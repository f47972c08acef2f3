// Admin management of stored secrets: list (never the value), set (seal and
// store), delete. Values are decrypted only by the store resolver, for an
// executor about to use them.
import type { Database } from "../db/client";
import { deleteSecretRow, listSecretRows, secretIdByName, writeSecretRow } from "../db/secrets.repo";
import { notFound } from "../errors";
import { lastFour, sealSecret, type SecretKey } from "./secret-box";

export const SECRET_KINDS = ["provider_key", "webhook_secret", "other"] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

/** Names a loop config can reference, e.g. `apiKeySecret: "OPENAI_API_KEY"`. */
export const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

/** Well-known names the settings page always shows, set or not. */
export const SUGGESTED_SECRETS: { name: string; kind: SecretKind }[] = [
  { name: "OPENAI_API_KEY", kind: "provider_key" },
  { name: "ANTHROPIC_API_KEY", kind: "provider_key" },
];

export async function listSecrets(db: Database) {
  const rows = await listSecretRows(db.prisma);
  const listed = rows.map((row) => ({ ...row, status: "set" as const }));
  const missing = SUGGESTED_SECRETS.filter((s) => !rows.some((r) => r.name === s.name)).map((s) => ({
    id: null,
    name: s.name,
    kind: s.kind,
    last4: "",
    createdAt: null,
    updatedAt: null,
    status: "not set" as const,
  }));
  return [...listed, ...missing];
}

export async function setSecret(
  db: Database,
  key: SecretKey,
  input: { name: string; kind: SecretKind; value: string; actorId: string | null },
  newId: () => string,
) {
  const existing = await secretIdByName(db.prisma, input.name);
  const id = existing?.id ?? newId();
  const row = await writeSecretRow(
    db.prisma,
    { id, name: input.name, kind: input.kind, ciphertext: sealSecret(key, id, input.value), last4: lastFour(input.value), updatedById: input.actorId },
    Boolean(existing),
  );
  return { ...row, status: "set" as const };
}

export async function deleteSecret(db: Database, id: string) {
  if (!(await deleteSecretRow(db.prisma, id))) throw notFound("Secret", id);
}
