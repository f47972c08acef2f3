-- CreateTable
CREATE TABLE "LandingQueue" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "repo" TEXT NOT NULL,
    "targetBranch" TEXT NOT NULL,
    "strategy" TEXT NOT NULL DEFAULT 'rebase',
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "LandingEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "LandingEntry_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "LandingQueue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LandingEntry_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "LandingQueue_leaseExpiresAt_idx" ON "LandingQueue"("leaseExpiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "LandingQueue_repo_targetBranch_key" ON "LandingQueue"("repo", "targetBranch");

-- CreateIndex
CREATE INDEX "LandingEntry_queueId_status_id_idx" ON "LandingEntry"("queueId", "status", "id");

-- CreateIndex
CREATE INDEX "LandingEntry_loopId_id_idx" ON "LandingEntry"("loopId", "id");
