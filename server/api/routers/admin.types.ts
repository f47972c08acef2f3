// Output contracts of the admin routers (secrets, users) and of system health.
// They list every key a browser may see: a column added to a repository's
// select later is stripped here until someone decides it is public. Stored
// enum-like columns stay strings: an old row must never fail a response.
import { z } from "zod";
import { SECRET_USE_KINDS, SECRET_USER_ROLES } from "../../secrets/secret-scope";

const scope = z.object({
  roles: z.array(z.enum(SECRET_USER_ROLES)),
  kinds: z.array(z.enum(SECRET_USE_KINDS)),
  hosts: z.array(z.string()),
});

/** A stored secret as an admin sees it: never a value, only its last 4 characters. */
const listedSecret = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  last4: z.string(),
  scope,
  createdAt: z.date(),
  updatedAt: z.date(),
  status: z.literal("set"),
});

/** A suggested secret that is not stored yet. */
const missingSecret = z.object({
  id: z.null(),
  name: z.string(),
  kind: z.string(),
  last4: z.string(),
  scope: z.null(),
  createdAt: z.null(),
  updatedAt: z.null(),
  status: z.literal("not set"),
});

export const secretListOutput = z.array(z.union([listedSecret, missingSecret]));
export const secretOutput = listedSecret;
/** A saved value too short to redact reliably comes back with a warning (null otherwise). */
export const secretSetOutput = listedSecret.extend({ warning: z.string().nullable() });
export const usableSecretsOutput = z.array(z.object({ id: z.string(), name: z.string(), kind: z.string(), scope }));

export const accountOutput = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  createdAt: z.date(),
  disabledAt: z.date().nullable(),
});

export const okOutput = z.object({ ok: z.literal(true) });

export const storageOutput = z.object({
  ok: z.boolean(),
  reason: z.string().nullable(),
  freeBytes: z.number().nullable(),
  ageMs: z.number().optional(),
});

export const healthOutput = z.object({
  status: z.enum(["ok", "degraded", "down"]),
  db: z.enum(["sqlite", "postgresql"]),
  migrations: z.string(),
  version: z.string(),
  sandbox: z.object({
    mode: z.enum(["on", "off"]),
    available: z.boolean(),
    backend: z.enum(["bubblewrap", "sandbox-exec"]).nullable(),
    detail: z.string().nullable(),
  }),
  storage: storageOutput,
  error: z.string().optional(),
});
