-- CreateEnum
CREATE TYPE "AuthSource" AS ENUM ('local', 'saml');

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "auth_source" "AuthSource" NOT NULL DEFAULT 'local',
ALTER COLUMN "password_hash" DROP NOT NULL;

-- CreateTable
CREATE TABLE "sso_config" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "idp_entity_id" TEXT,
    "idp_sso_url" TEXT,
    "idp_certificate" TEXT,
    "sp_entity_id" TEXT,
    "attribute_mapping" JSONB NOT NULL DEFAULT '{}',
    "role_mapping" JSONB NOT NULL DEFAULT '{}',
    "default_role" "Role" NOT NULL DEFAULT 'viewer',
    "auto_provision" BOOLEAN NOT NULL DEFAULT true,
    "updated_by" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sso_config_pkey" PRIMARY KEY ("id")
);
