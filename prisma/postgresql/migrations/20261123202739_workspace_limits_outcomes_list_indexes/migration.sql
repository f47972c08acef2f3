-- DropIndex
DROP INDEX "Loop_createdAt_idx";

-- AlterTable
ALTER TABLE "Iteration" ADD COLUMN     "agent" TEXT NOT NULL DEFAULT 'primary',
ADD COLUMN     "askedQuestion" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "codeDiff" TEXT,
ADD COLUMN     "diagnostics" JSONB,
ADD COLUMN     "failureKind" TEXT,
ADD COLUMN     "question" TEXT,
ADD COLUMN     "workspace" JSONB;

-- CreateTable
CREATE TABLE "UsageLimitWindow" (
    "account" TEXT NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,
    "learnedAt" TIMESTAMP(3) NOT NULL,
    "message" TEXT NOT NULL,
    "loopId" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UsageLimitWindow_pkey" PRIMARY KEY ("account")
);

-- CreateIndex
CREATE INDEX "Loop_createdAt_id_idx" ON "Loop"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Loop_updatedAt_id_idx" ON "Loop"("updatedAt", "id");

-- CreateIndex
CREATE INDEX "Loop_costUsd_id_idx" ON "Loop"("costUsd", "id");

-- CreateIndex
CREATE INDEX "Loop_iteration_id_idx" ON "Loop"("iteration", "id");
