import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { safeNextPath } from "@/lib/auth/paths";
import { serverCaller } from "@/lib/trpc/server";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const raw = (await searchParams).next;
  const next = safeNextPath(Array.isArray(raw) ? raw[0] : raw);
  const caller = await serverCaller();
  if (await caller.auth.me()) redirect(next);
  const setup = await caller.auth.setupStatus();
  if (setup.needed && setup.allowedHere) redirect("/setup");
  return (
    <div className="mx-auto mt-10 max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h1 className="mb-1 text-xl font-semibold tracking-tight">Sign in</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">to Ralph Control</p>
      {setup.needed && (
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          No accounts yet. Open <code>/setup</code> on the server&apos;s own machine (http://localhost), or start the
          server with RALPH_ADMIN_EMAIL and RALPH_ADMIN_PASSWORD.
        </p>
      )}
      <LoginForm next={next} />
    </div>
  );
}
