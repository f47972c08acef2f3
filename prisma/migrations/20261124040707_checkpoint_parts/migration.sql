-- CreateTable
CREATE TABLE "CheckpointPart" (
    "loopId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "body" TEXT NOT NULL,

    PRIMARY KEY ("loopId", "hash"),
    CONSTRAINT "CheckpointPart_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
