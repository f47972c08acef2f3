// Admin management of stored secrets: list (never the value), set (seal and
// store), delete. Values are decrypted only by the store resolver, for an
// executor about to use them.
import { shortSecretWarning } from "./secret-strength";
import type { Database } from "../db/client";
import { deleteSecretRow, listSecretRows, secretIdByName, writeSecretRow, writeSecretScope } from "../db/secrets.repo";
import { notFound } from "../errors";
import { lastFour, sealSecret, type SecretKey } from "./secret-box";
import { scopeColumns, scopeFromRow, type SecretScope } from "./secret-scope";

export const SECRET_KINDS = ["provider_key", "webhook_secret", "other"] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

/** Names a loop config can reference, e.g. `apiKeySecret: "OPENAI_API_KEY"`. */
export const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

/** Well-known names the settings page always shows, set or not. */
export const SUGGESTED_SECRETS: { name: string; kind: SecretKind }[] = [
  { name: "OPENAI_API_KEY", kind: "provider_key" },
  { name: "ANTHROPIC_API_KEY", kind: "provider_key" },
];

type ListedRow = Awaited<ReturnType<typeof listSecretRows>>[number];
const listed = ({ allowedRoles, allowedKinds, allowedHosts, ...row }: ListedRow) => ({
  ...row,
  scope: scopeFromRow({ allowedRoles, allowedKinds, allowedHosts }),
  status: "set" as const,
});

export async function listSecrets(db: Database) {
  const rows = await listSecretRows(db.prisma);
  const missing = SUGGESTED_SECRETS.filter((s) => !rows.some((r) => r.name === s.name)).map((s) => ({
    id: null,
    name: s.name,
    kind: s.kind,
    last4: "",
    scope: null,
    createdAt: null,
    updatedAt: null,
    status: "not set" as const,
  }));
  return [...rows.map(listed), ...missing];
}

/** The secrets an operator may pick for a loop (id, name, kind and scope; never a value). */
export async function usableSecrets(db: Database, role: "viewer" | "operator" | "admin") {
  const rows = await listSecretRows(db.prisma);
  return rows
    .map(listed)
    .filter((s) => role === "admin" || (role === "operator" && s.scope.roles.includes("operator")))
    .map(({ id, name, kind, scope }) => ({ id, name, kind, scope }));
}

export async function setSecret(
  db: Database,
  key: SecretKey,
  input: { name: string; kind: SecretKind; value: string; actorId: string | null; scope?: SecretScope },
  newId: () => string,
) {
  const existing = await secretIdByName(db.prisma, input.name);
  const id = existing?.id ?? newId();
  const row = await writeSecretRow(
    db.prisma,
    {
      id,
      name: input.name,
      kind: input.kind,
      ciphertext: sealSecret(key, id, input.value),
      last4: lastFour(input.value),
      updatedById: input.actorId,
      // A new value keeps the scope it had unless one is given.
      ...(input.scope ? scopeColumns(input.scope) : {}),
    },
    Boolean(existing),
  );
  return { ...listed(row), warning: shortSecretWarning(input.value) };
}

export async function setSecretScope(db: Database, id: string, scope: SecretScope, actorId: string | null) {
  const row = await writeSecretScope(db.prisma, id, { ...scopeColumns(scope), updatedById: actorId });
  if (!row) throw notFound("Secret", id);
  return listed(row);
}

export async function deleteSecret(db: Database, id: string) {
  if (!(await deleteSecretRow(db.prisma, id))) throw notFound("Secret", id);
}
