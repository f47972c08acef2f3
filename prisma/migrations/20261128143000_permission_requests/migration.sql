-- CreateTable
CREATE TABLE "PermissionRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "requestedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadlineAt" DATETIME NOT NULL,
    "defaultAction" TEXT NOT NULL,
    "decidedAt" DATETIME,
    "decidedById" TEXT,
    "decidedBy" TEXT,
    "byDefault" BOOLEAN NOT NULL DEFAULT false,
    "message" TEXT,
    CONSTRAINT "PermissionRequest_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PermissionRequest_loopId_status_idx" ON "PermissionRequest"("loopId", "status");

-- CreateIndex
CREATE INDEX "PermissionRequest_status_deadlineAt_idx" ON "PermissionRequest"("status", "deadlineAt");
