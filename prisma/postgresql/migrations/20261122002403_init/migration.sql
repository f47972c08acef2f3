-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "passwordHash" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "disabledAt" TIMESTAMP(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "ip" TEXT,
    "userAgent" TEXT,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Loop" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "goal" TEXT NOT NULL,
    "agentKind" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "stopType" TEXT,
    "stopReason" TEXT,
    "health" TEXT NOT NULL DEFAULT 'healthy',
    "iteration" INTEGER NOT NULL DEFAULT 0,
    "maxIterations" INTEGER NOT NULL DEFAULT 10,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "budgetUsd" DOUBLE PRECISION,
    "tokensIn" INTEGER NOT NULL DEFAULT 0,
    "tokensOut" INTEGER NOT NULL DEFAULT 0,
    "tokensCache" INTEGER NOT NULL DEFAULT 0,
    "bestScore" DOUBLE PRECISION,
    "lastScore" DOUBLE PRECISION,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "nextRunAt" TIMESTAMP(3),
    "lastHeartbeatAt" TIMESTAMP(3),
    "lastActivityAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    "forkedFromId" TEXT,
    "forkedFromIteration" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Loop_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Iteration" (
    "id" TEXT NOT NULL,
    "loopId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "status" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "output" TEXT NOT NULL DEFAULT '',
    "outputTruncated" BOOLEAN NOT NULL DEFAULT false,
    "claimedDone" BOOLEAN NOT NULL DEFAULT false,
    "claim" TEXT,
    "evidence" JSONB,
    "evidenceComplete" BOOLEAN NOT NULL DEFAULT false,
    "claimMismatch" BOOLEAN NOT NULL DEFAULT false,
    "scores" JSONB,
    "meanScore" DOUBLE PRECISION,
    "validation" JSONB,
    "verification" JSONB,
    "reflection" JSONB,
    "toolCalls" JSONB,
    "tokensIn" INTEGER NOT NULL DEFAULT 0,
    "tokensOut" INTEGER NOT NULL DEFAULT 0,
    "tokensCache" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "health" TEXT,
    "handoffTrigger" TEXT,
    "error" TEXT,
    "checkpointId" TEXT,

    CONSTRAINT "Iteration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Checkpoint" (
    "id" TEXT NOT NULL,
    "loopId" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Checkpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LoopEvent" (
    "id" SERIAL NOT NULL,
    "loopId" TEXT,
    "type" TEXT NOT NULL,
    "actorId" TEXT,
    "actor" TEXT NOT NULL DEFAULT 'system',
    "reason" TEXT,
    "payload" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LoopEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ControlRequest" (
    "id" TEXT NOT NULL,
    "loopId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB,
    "actorId" TEXT,
    "actor" TEXT NOT NULL DEFAULT 'system',
    "reason" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "result" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "appliedAt" TIMESTAMP(3),

    CONSTRAINT "ControlRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" TEXT NOT NULL,
    "loopId" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "gate" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "context" JSONB,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadlineAt" TIMESTAMP(3),
    "defaultAction" TEXT NOT NULL DEFAULT 'reject',
    "decidedAt" TIMESTAMP(3),
    "decidedById" TEXT,
    "decidedBy" TEXT,
    "comment" TEXT,

    CONSTRAINT "Approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShareLink" (
    "id" TEXT NOT NULL,
    "loopId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "lastAccessedAt" TIMESTAMP(3),

    CONSTRAINT "ShareLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Loop_status_updatedAt_idx" ON "Loop"("status", "updatedAt");

-- CreateIndex
CREATE INDEX "Loop_agentKind_updatedAt_idx" ON "Loop"("agentKind", "updatedAt");

-- CreateIndex
CREATE INDEX "Loop_createdAt_idx" ON "Loop"("createdAt");

-- CreateIndex
CREATE INDEX "Loop_leaseExpiresAt_idx" ON "Loop"("leaseExpiresAt");

-- CreateIndex
CREATE INDEX "Loop_nextRunAt_idx" ON "Loop"("nextRunAt");

-- CreateIndex
CREATE INDEX "Iteration_loopId_finishedAt_idx" ON "Iteration"("loopId", "finishedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Iteration_loopId_number_attempt_key" ON "Iteration"("loopId", "number", "attempt");

-- CreateIndex
CREATE INDEX "Checkpoint_loopId_iteration_idx" ON "Checkpoint"("loopId", "iteration");

-- CreateIndex
CREATE INDEX "LoopEvent_loopId_id_idx" ON "LoopEvent"("loopId", "id");

-- CreateIndex
CREATE INDEX "LoopEvent_type_id_idx" ON "LoopEvent"("type", "id");

-- CreateIndex
CREATE INDEX "ControlRequest_loopId_status_createdAt_idx" ON "ControlRequest"("loopId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Approval_loopId_status_idx" ON "Approval"("loopId", "status");

-- CreateIndex
CREATE INDEX "Approval_status_deadlineAt_idx" ON "Approval"("status", "deadlineAt");

-- CreateIndex
CREATE UNIQUE INDEX "ShareLink_tokenHash_key" ON "ShareLink"("tokenHash");

-- CreateIndex
CREATE INDEX "ShareLink_loopId_idx" ON "ShareLink"("loopId");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Loop" ADD CONSTRAINT "Loop_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Iteration" ADD CONSTRAINT "Iteration_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Checkpoint" ADD CONSTRAINT "Checkpoint_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LoopEvent" ADD CONSTRAINT "LoopEvent_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ControlRequest" ADD CONSTRAINT "ControlRequest_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Approval" ADD CONSTRAINT "Approval_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop"("id") ON DELETE CASCADE ON UPDATE CASCADE;
