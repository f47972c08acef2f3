-- AlterTable
ALTER TABLE "UsageLimitWindow" ADD COLUMN     "usedPercent" DOUBLE PRECISION,
ADD COLUMN     "window" TEXT;
