-- AlterTable
ALTER TABLE "Loop" ADD COLUMN     "inflightAttempt" INTEGER,
ADD COLUMN     "inflightIteration" INTEGER,
ADD COLUMN     "inflightStartedAt" TIMESTAMP(3);
