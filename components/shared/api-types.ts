// What the server returns, by the AppRouter type only (no server code).
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;

export type LoopSummary = RouterOutputs["loops"]["list"]["items"][number];
export type LoopDetail = RouterOutputs["loops"]["byId"];
export type IterationRow = RouterOutputs["loops"]["iterations"]["items"][number];
export type AuditEvent = RouterOutputs["events"]["list"]["items"][number];
export type LoopTemplate = RouterOutputs["loops"]["templates"][number];
export type SharedReport = RouterOutputs["share"]["view"];
