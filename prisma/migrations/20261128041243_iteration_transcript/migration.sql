-- AlterTable
ALTER TABLE "Iteration" ADD COLUMN "transcript" JSONB;
