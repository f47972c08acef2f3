import { notFound } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { serverCaller } from "@/lib/trpc/server";

export const metadata = { title: "First-run setup" };
export const dynamic = "force-dynamic";

// Exists only while there is no user, and only for requests from the server's
// own machine (the checks and their threat model: server/auth/local-request.ts).
export default async function SetupPage() {
  const status = await (await serverCaller()).auth.setupStatus();
  if (!status.needed) notFound();
  return (
    <div className="mx-auto mt-10 max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h1 className="mb-1 text-xl font-semibold tracking-tight">Create the first admin</h1>
      {status.allowedHere ? (
        <>
          <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
            This page disappears once the account exists.
          </p>
          <SetupForm />
        </>
      ) : (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {status.problem}
        </p>
      )}
    </div>
  );
}
