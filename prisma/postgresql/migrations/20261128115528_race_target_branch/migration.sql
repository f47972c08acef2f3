-- AlterTable
ALTER TABLE "Race" ADD COLUMN     "targetBranch" TEXT;
