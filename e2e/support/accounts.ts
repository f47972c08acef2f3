// Accounts the end-to-end runs use. The admin is created by the app itself at
// start (playwright.config.ts passes RALPH_ADMIN_EMAIL / RALPH_ADMIN_PASSWORD);
// the others are created on demand by signIn() through the admin's API session.
export type E2eRole = "viewer" | "operator" | "admin";

export const E2E_ADMIN = { email: "admin@ralph.test", password: "e2e-admin-password-1234" } as const;

/** One account per role, shared by every spec of a run. */
export function e2eAccount(role: E2eRole) {
  if (role === "admin") return { ...E2E_ADMIN, role };
  return { email: `${role}@ralph.test`, password: `e2e-${role}-password-1234`, role };
}
