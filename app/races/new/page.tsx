import { RaceForm } from "@/components/races/race-form";

export const metadata = { title: "New race" };
export const dynamic = "force-dynamic";

export default function NewRacePage() {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">New race</h1>
      <p className="mb-6 mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        One goal and one repository, several agents: each contender runs as a loop of its own in its own worktree,
        graded by the same check. The compare view shows them side by side.
      </p>
      <RaceForm />
    </>
  );
}
