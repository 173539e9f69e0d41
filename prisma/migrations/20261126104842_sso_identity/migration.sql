-- AlterTable
ALTER TABLE "users" ADD COLUMN     "is_bootstrap" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "sso_issuer" TEXT,
ADD COLUMN     "sso_name_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "users_sso_issuer_sso_name_id_key" ON "users"("sso_issuer", "sso_name_id");

-- The first administrator is the one created on an empty database (audited as such).
UPDATE "users" SET "is_bootstrap" = true
WHERE "id"::text IN (SELECT "entity_id" FROM "audit_logs" WHERE "action" = 'create_user' AND "details"->>'bootstrap' = 'true');
