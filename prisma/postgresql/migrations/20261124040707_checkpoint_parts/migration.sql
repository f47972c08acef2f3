-- CreateTable
CREATE TABLE "CheckpointPart" (
    "loopId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "body" TEXT NOT NULL,

    CONSTRAINT "CheckpointPart_pkey" PRIMARY KEY ("loopId","hash")
);

-- AddForeignKey
ALTER TABLE "CheckpointPart" ADD CONSTRAINT "CheckpointPart_loopId_fkey" FOREIGN KEY ("loopId") REFERENCES "Loop"("id") ON DELETE CASCADE ON UPDATE CASCADE;
