-- CreateTable
CREATE TABLE "LandingQueue" (
    "id" TEXT NOT NULL,
    "repo" TEXT NOT NULL,
    "targetBranch" TEXT NOT NULL,
    "strategy" TEXT NOT NULL DEFAULT 'rebase',
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LandingQueue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LandingEntry" (
    "id" TEXT NOT NULL,
    "queueId" TEXT NOT NULL,
    "loopId" TEXT NOT NULL,
    "sourceBranch" TEXT NOT NULL,
    "sourceSha" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "reason" TEXT,
    "detail" JSONB,
    "baseSha" TEXT,
    "resultSha" TEXT,
    "landedSha" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "sentBackLoopId" TEXT,
    "actorId" TEXT,
    "actor" TEXT NOT NULL DEFAULT 'system',
    "requestReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "LandingEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "LandingQueue_leaseExpiresAt_idx" ON "LandingQueue"("leaseExpiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "LandingQueue_repo_targetBranch_key" ON "LandingQueue"("repo", "targetBranch");

-- CreateIndex
CREATE INDEX "LandingEntry_queueId_status_id_idx" ON "LandingEntry"("queueId", "status", "id");

-- CreateIndex
CREATE INDEX "LandingEntry_loopId_id_idx" ON "LandingEntry"("loopId", "id");

-- AddForeignKey
ALTER TABLE "LandingEntry" ADD CONSTRAINT "LandingEntry_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "LandingQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LandingEntry" ADD CONSTRAINT "LandingEntry_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop"("id") ON DELETE CASCADE ON UPDATE CASCADE;
