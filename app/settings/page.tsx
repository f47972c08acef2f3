import { PasswordSection } from "@/components/auth/password-section";
import { SecretsSection } from "@/components/auth/secrets-section";
import { UsersSection } from "@/components/auth/users-section";
import { serverCaller } from "@/server/api/rsc";

export const metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const caller = await serverCaller();
  const [health, me] = await Promise.all([caller.system.health(), caller.auth.me()]);
  const rows: [string, string][] = [
    ["Database", health.db],
    ["Migrations", health.migrations],
    ["Version", health.version],
    ["Status", health.status],
  ];
  return (
    <>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Settings</h1>
      <section className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900">
        <h2 className="mb-3 font-medium">System</h2>
        <dl className="grid grid-cols-[10rem_1fr] gap-y-2 text-sm">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-500">{k}</dt>
              <dd className="font-mono">{v}</dd>
            </div>
          ))}
        </dl>
      </section>
      <div className="mt-6 grid gap-6">
        <PasswordSection />
        {me?.role === "admin" && <UsersSection selfId={me.id} />}
        {me?.role === "admin" && <SecretsSection />}
      </div>
    </>
  );
}
