// Who is acting. Until operator sign-in lands, every request acts as the
// built-in local operator, so the audit log still names an actor.
export type Role = "viewer" | "operator" | "admin";

export interface Actor {
  id: string | null;
  email: string;
  name: string;
  role: Role;
}

export const LOCAL_OPERATOR: Actor = { id: null, email: "local", name: "Local operator", role: "admin" };

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
export const hasRole = (actor: Actor, needed: Role) => RANK[actor.role] >= RANK[needed];
