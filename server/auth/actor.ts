// Who is acting, and what their role lets them do. HTTP requests act as the
// signed-in user (server/auth/sessions.service.ts); in-process callers that
// name nobody (scripts, the demo seed, tests) act as the built-in local
// operator, so the audit log always names an actor.
export type Role = "viewer" | "operator" | "admin";

export interface Actor {
  id: string | null;
  email: string;
  name: string;
  role: Role;
  /** The API token's name when the call came with `Authorization: Bearer`, so the audit log says so. */
  token?: string;
}

export const LOCAL_OPERATOR: Actor = { id: null, email: "local", name: "Local operator", role: "admin" };

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
export const hasRole = (actor: Actor, needed: Role) => RANK[actor.role] >= RANK[needed];

/** What a role may do, as `auth.me` tells the UI: pages ask this, never the role itself. */
export interface Permissions {
  /** Create loops and send controls. */
  operateLoops: boolean;
  /** Manage users and secrets. */
  administer: boolean;
}

export const permissionsOf = (actor: Actor): Permissions => ({
  operateLoops: hasRole(actor, "operator"),
  administer: hasRole(actor, "admin"),
});
