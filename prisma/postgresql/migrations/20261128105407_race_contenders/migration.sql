-- AlterTable
ALTER TABLE "Loop" ADD COLUMN     "raceId" TEXT;

-- CreateTable
CREATE TABLE "Race" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "goal" TEXT NOT NULL,
    "policy" TEXT NOT NULL DEFAULT 'first_verified',
    "winnerLoopId" TEXT,
    "decidedAt" TIMESTAMP(3),
    "decidedBy" TEXT,
    "decisionReason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Race_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Race_createdAt_id_idx" ON "Race"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Loop_raceId_idx" ON "Loop"("raceId");
