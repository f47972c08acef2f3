-- AlterTable
ALTER TABLE "UsageLimitWindow" ADD COLUMN "usedPercent" REAL;
ALTER TABLE "UsageLimitWindow" ADD COLUMN "window" TEXT;
