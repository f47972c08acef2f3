-- AlterTable
ALTER TABLE "Loop" ADD COLUMN "checkpointId" TEXT;
