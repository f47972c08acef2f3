import { serverCaller } from "@/server/api/rsc";

export const metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const health = await (await serverCaller()).system.health();
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
    </>
  );
}
