// Who may use a stored secret, with what, and where it may be sent. Set by
// an admin per secret; checked when a loop is created (the acting user) and
// again each time an executor resolves the secret (the loop's creator).
import { z } from "zod";

export const SECRET_USER_ROLES = ["operator", "admin"] as const;
export const SECRET_USE_KINDS = ["command", "llm", "webhook"] as const;
export type SecretUseKind = (typeof SECRET_USE_KINDS)[number];

const hostPattern = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$/, "must be a host like api.openai.com or *.example.com");

export const secretScopeSchema = z.object({
  /** Admins can always use a secret; this says whether operators can too. */
  roles: z.array(z.enum(SECRET_USER_ROLES)).default(["admin"]),
  /** Empty: any kind of adapter. */
  kinds: z.array(z.enum(SECRET_USE_KINDS)).default([]),
  /** Empty: any destination. Otherwise every host the value can reach must be one of these. */
  hosts: z.array(hostPattern).default([]),
});
export type SecretScope = z.output<typeof secretScopeSchema>;

const split = (text: string) => text.split(",").filter(Boolean);

export function scopeFromRow(row: { allowedRoles: string; allowedKinds: string; allowedHosts: string }): SecretScope {
  const roles = split(row.allowedRoles).filter((r): r is SecretScope["roles"][number] =>
    (SECRET_USER_ROLES as readonly string[]).includes(r),
  );
  const kinds = split(row.allowedKinds).filter((k): k is SecretUseKind =>
    (SECRET_USE_KINDS as readonly string[]).includes(k),
  );
  return { roles: roles.includes("admin") ? roles : ["admin", ...roles], kinds, hosts: split(row.allowedHosts) };
}

export function scopeColumns(scope: SecretScope) {
  const roles = new Set<string>(["admin", ...scope.roles]);
  return {
    allowedRoles: [...roles].sort().join(","),
    allowedKinds: [...new Set(scope.kinds)].join(","),
    allowedHosts: [...new Set(scope.hosts)].join(","),
  };
}

/** What wants the value: the acting role, the adapter kind, and every host the value could reach (null: anywhere). */
export interface SecretUse {
  role: "viewer" | "operator" | "admin";
  kind: SecretUseKind;
  hosts: readonly string[] | null;
}

const splitPort = (pattern: string) => {
  const m = /^(.*?)(?::(\d+))?$/.exec(pattern)!;
  return { host: m[1]!, port: m[2] ?? null };
};

/** The scope entry `allowed` covers everything `wanted` (a host or a wildcard) can reach. */
export function hostCovers(allowed: string, wanted: string): boolean {
  const a = splitPort(allowed.toLowerCase());
  const w = splitPort(wanted.toLowerCase());
  if (a.port !== null && a.port !== w.port) return false;
  if (a.host === w.host) return true;
  if (!a.host.startsWith("*.")) return false;
  const suffix = a.host.slice(1); // ".example.com"
  const base = w.host.startsWith("*.") ? w.host.slice(1) : `.${w.host}`;
  return base.endsWith(suffix) && base !== suffix;
}

/** null when the use is inside the scope, else why not (for a 403 or a config error). */
export function scopeViolation(name: string, scope: SecretScope, use: SecretUse): string | null {
  if (use.role !== "admin" && !(scope.roles as readonly string[]).includes(use.role)) {
    return `the stored secret "${name}" is for admins only`;
  }
  if (scope.kinds.length > 0 && !scope.kinds.includes(use.kind)) {
    return `the stored secret "${name}" may only be used by ${scope.kinds.join(", ")} adapters, not ${use.kind}`;
  }
  if (scope.hosts.length > 0) {
    if (use.hosts === null) {
      return `the stored secret "${name}" may only be sent to ${scope.hosts.join(", ")}, but this process can reach any host (sandbox off)`;
    }
    const outside = use.hosts.filter((h) => !scope.hosts.some((a) => hostCovers(a, h)));
    if (outside.length > 0) {
      return `the stored secret "${name}" may only be sent to ${scope.hosts.join(", ")}, not ${outside.join(", ")}`;
    }
  }
  return null;
}
