// Cost per verified task, as every place a loop's or a group's outcome is shown says it: the dollar
// figure, or why there is none yet (nothing verified: the spend bought no verified task).
import { formatUsd } from "./format";

export function costPerVerifiedText(costPerVerifiedUsd: number | null): string {
  return costPerVerifiedUsd === null ? "no verified task" : formatUsd(costPerVerifiedUsd);
}

export function CostPerVerified({ value, testId }: { value: number | null; testId?: string }) {
  return (
    <span
      data-testid={testId}
      title="Spend (retries, judges and verifiers included) divided by the tasks the evidence verified or that landed"
      className={value === null ? "text-slate-500 dark:text-slate-400" : undefined}
    >
      {costPerVerifiedText(value)}
    </span>
  );
}
