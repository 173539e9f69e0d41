-- CreateEnum
CREATE TYPE "SoftwareKind" AS ENUM ('malware', 'tool');

-- CreateTable
CREATE TABLE "software" (
    "id" UUID NOT NULL,
    "stix_id" TEXT NOT NULL,
    "external_id" TEXT,
    "kind" "SoftwareKind" NOT NULL,
    "name" TEXT NOT NULL,
    "aliases" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "description" TEXT NOT NULL DEFAULT '',
    "platforms" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "deprecated" BOOLEAN NOT NULL DEFAULT false,
    "attack_modified" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "software_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "software_stix_id_key" ON "software"("stix_id");

-- CreateIndex
CREATE INDEX "software_external_id_idx" ON "software"("external_id");

-- CreateIndex
CREATE INDEX "software_name_idx" ON "software"("name");
