-- CreateIndex
CREATE INDEX "Iteration_chart_covering_idx" ON "Iteration"("loopId", "number", "attempt", "meanScore", "costUsd", "tokensIn", "tokensOut", "tokensCache", "durationMs", "finishedAt", "status", "handoffTrigger");
