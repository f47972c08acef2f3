-- AlterTable
ALTER TABLE "Loop" ADD COLUMN "inflightAgent" JSONB;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Secret" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'provider_key',
    "ciphertext" TEXT NOT NULL,
    "last4" TEXT NOT NULL DEFAULT '',
    "allowedRoles" TEXT NOT NULL DEFAULT 'admin',
    "allowedKinds" TEXT NOT NULL DEFAULT '',
    "allowedHosts" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "updatedById" TEXT
);
INSERT INTO "new_Secret" ("ciphertext", "createdAt", "id", "kind", "last4", "name", "updatedAt", "updatedById") SELECT "ciphertext", "createdAt", "id", "kind", "last4", "name", "updatedAt", "updatedById" FROM "Secret";
DROP TABLE "Secret";
ALTER TABLE "new_Secret" RENAME TO "Secret";
CREATE UNIQUE INDEX "Secret_name_key" ON "Secret"("name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
