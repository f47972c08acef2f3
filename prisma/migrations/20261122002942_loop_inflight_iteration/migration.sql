-- AlterTable
ALTER TABLE "Loop" ADD COLUMN "inflightAttempt" INTEGER;
ALTER TABLE "Loop" ADD COLUMN "inflightIteration" INTEGER;
ALTER TABLE "Loop" ADD COLUMN "inflightStartedAt" DATETIME;
