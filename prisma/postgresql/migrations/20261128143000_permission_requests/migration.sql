-- CreateTable
CREATE TABLE "PermissionRequest" (
    "id" TEXT NOT NULL,
    "loopId" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "toolName" TEXT NOT NULL,
    "toolUseId" TEXT,
    "input" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadlineAt" TIMESTAMP(3) NOT NULL,
    "defaultAction" TEXT NOT NULL,
    "decidedAt" TIMESTAMP(3),
    "decidedById" TEXT,
    "decidedBy" TEXT,
    "byDefault" BOOLEAN NOT NULL DEFAULT false,
    "message" TEXT,

    CONSTRAINT "PermissionRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PermissionRequest_loopId_status_idx" ON "PermissionRequest"("loopId", "status");

-- CreateIndex
CREATE INDEX "PermissionRequest_status_deadlineAt_idx" ON "PermissionRequest"("status", "deadlineAt");

-- AddForeignKey
ALTER TABLE "PermissionRequest" ADD CONSTRAINT "PermissionRequest_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop"("id") ON DELETE CASCADE ON UPDATE CASCADE;
