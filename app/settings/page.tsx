import { AlertsSection } from "@/components/auth/alerts-section";
import { PasswordSection } from "@/components/auth/password-section";
import { SandboxStatus } from "@/components/auth/sandbox-status";
import { SecretsSection } from "@/components/auth/secrets-section";
import { TokensSection } from "@/components/auth/tokens-section";
import { UsersSection } from "@/components/auth/users-section";
import { Section } from "@/components/auth/section";
import { ShortcutToggle } from "@/components/shared/shortcut-toggle";
import { UsageLimitsSection } from "@/components/settings/usage-limits-section";
import { serverCaller } from "@/lib/trpc/server";

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
        {/* At phone width each value goes under its label, so a long one never squeezes into a narrow column. */}
        <dl className="grid grid-cols-1 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-y-2">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-600 dark:text-slate-400">{k}</dt>
              <dd className="mb-2 font-mono break-words sm:mb-0">{v}</dd>
            </div>
          ))}
          <dt className="text-slate-600 dark:text-slate-400">Agent sandbox</dt>
          <dd className="text-sm">
            <SandboxStatus {...health.sandbox} />
          </dd>
        </dl>
      </section>
      {/* A track that may shrink: a wide table scrolls inside its section instead of widening the page. */}
      <div className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-6">
        <Section
          title="Keyboard"
          description="Single keys act on the loop page (press ? there for the list). Turn them off if they get in the way of speech input or other tools."
        >
          <ShortcutToggle />
        </Section>
        <PasswordSection />
        {me && <TokensSection role={me.role} />}
        {me && <UsageLimitsSection canClear={me.permissions.administer} />}
        {me?.permissions.administer && <UsersSection selfId={me.id} />}
        {me?.permissions.administer && <SecretsSection />}
        {me?.permissions.administer && <AlertsSection />}
      </div>
    </>
  );
}
