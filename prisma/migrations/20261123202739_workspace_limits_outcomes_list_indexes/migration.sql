-- DropIndex
DROP INDEX "Loop_createdAt_idx";

-- CreateTable
CREATE TABLE "UsageLimitWindow" (
    "account" TEXT NOT NULL PRIMARY KEY,
    "until" DATETIME NOT NULL,
    "learnedAt" DATETIME NOT NULL,
    "message" TEXT NOT NULL,
    "loopId" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Iteration" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "loopId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "status" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "agent" TEXT NOT NULL DEFAULT 'primary',
    "input" TEXT NOT NULL,
    "output" TEXT NOT NULL DEFAULT '',
    "outputTruncated" BOOLEAN NOT NULL DEFAULT false,
    "claimedDone" BOOLEAN NOT NULL DEFAULT false,
    "claim" TEXT,
    "evidence" JSONB,
    "evidenceComplete" BOOLEAN NOT NULL DEFAULT false,
    "claimMismatch" BOOLEAN NOT NULL DEFAULT false,
    "scores" JSONB,
    "meanScore" REAL,
    "validation" JSONB,
    "verification" JSONB,
    "reflection" JSONB,
    "toolCalls" JSONB,
    "tokensIn" INTEGER NOT NULL DEFAULT 0,
    "tokensOut" INTEGER NOT NULL DEFAULT 0,
    "tokensCache" INTEGER NOT NULL DEFAULT 0,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME NOT NULL,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "health" TEXT,
    "handoffTrigger" TEXT,
    "error" TEXT,
    "checkpointId" TEXT,
    "workspace" JSONB,
    "codeDiff" TEXT,
    "askedQuestion" BOOLEAN NOT NULL DEFAULT false,
    "question" TEXT,
    "failureKind" TEXT,
    "diagnostics" JSONB,
    CONSTRAINT "Iteration_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Iteration" ("agentId", "attempt", "checkpointId", "claim", "claimMismatch", "claimedDone", "costUsd", "durationMs", "error", "evidence", "evidenceComplete", "finishedAt", "handoffTrigger", "health", "id", "input", "loopId", "meanScore", "number", "output", "outputTruncated", "reflection", "scores", "startedAt", "status", "tokensCache", "tokensIn", "tokensOut", "toolCalls", "validation", "verification") SELECT "agentId", "attempt", "checkpointId", "claim", "claimMismatch", "claimedDone", "costUsd", "durationMs", "error", "evidence", "evidenceComplete", "finishedAt", "handoffTrigger", "health", "id", "input", "loopId", "meanScore", "number", "output", "outputTruncated", "reflection", "scores", "startedAt", "status", "tokensCache", "tokensIn", "tokensOut", "toolCalls", "validation", "verification" FROM "Iteration";
DROP TABLE "Iteration";
ALTER TABLE "new_Iteration" RENAME TO "Iteration";
CREATE INDEX "Iteration_loopId_finishedAt_idx" ON "Iteration"("loopId", "finishedAt");
CREATE UNIQUE INDEX "Iteration_loopId_number_attempt_key" ON "Iteration"("loopId", "number", "attempt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Loop_createdAt_id_idx" ON "Loop"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Loop_updatedAt_id_idx" ON "Loop"("updatedAt", "id");

-- CreateIndex
CREATE INDEX "Loop_costUsd_id_idx" ON "Loop"("costUsd", "id");

-- CreateIndex
CREATE INDEX "Loop_iteration_id_idx" ON "Loop"("iteration", "id");
