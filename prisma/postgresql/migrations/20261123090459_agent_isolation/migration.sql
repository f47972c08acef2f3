-- AlterTable
ALTER TABLE "Loop" ADD COLUMN     "inflightAgent" JSONB;

-- AlterTable
ALTER TABLE "Secret" ADD COLUMN     "allowedHosts" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "allowedKinds" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "allowedRoles" TEXT NOT NULL DEFAULT 'admin';
