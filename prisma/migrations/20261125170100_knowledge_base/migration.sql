-- CreateEnum
CREATE TYPE "PlaybookType" AS ENUM ('execution', 'detection', 'response', 'hunting', 'remediation');

-- CreateTable
-- search_vector is written by hand (the schema diff cannot generate it; the schema declares it with
-- `@default(dbgenerated())`, which the diff reads as equal): a generated tsvector for full-text search, weighted
-- title A, tags B, content C. Generated columns need immutable expressions and array_to_string is only stable, so
-- the tags pass through array_to_tsvector (immutable) and its text form before being parsed like the other text.
-- Tags are never empty strings (array_to_tsvector refuses them); the service trims and refuses empty tags.
CREATE TABLE "playbooks" (
    "id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "type" "PlaybookType" NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "version" INTEGER NOT NULL DEFAULT 1,
    "restored_from" INTEGER,
    "created_by" UUID,
    "updated_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "search_vector" tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', "title"), 'A') ||
        setweight(to_tsvector('english', coalesce(array_to_tsvector("tags")::text, '')), 'B') ||
        setweight(to_tsvector('english', "content"), 'C')
    ) STORED,

    CONSTRAINT "playbooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "playbook_versions" (
    "id" UUID NOT NULL,
    "playbook_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "technique_id" UUID NOT NULL,
    "type" "PlaybookType" NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "tags" TEXT[],
    "restored_from" INTEGER,
    "author_id" UUID,
    "authored_at" TIMESTAMPTZ(3) NOT NULL,
    "replaced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "playbook_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
-- search_vector by hand as for playbooks: title A, what happened B, root cause and recommendations C.
CREATE TABLE "lessons_learned" (
    "id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "test_id" UUID,
    "campaign_id" UUID,
    "severity" "Severity" NOT NULL DEFAULT 'medium',
    "title" TEXT NOT NULL,
    "what_happened" TEXT NOT NULL,
    "root_cause" TEXT NOT NULL,
    "recommendations" TEXT NOT NULL DEFAULT '',
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "search_vector" tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', "title"), 'A') ||
        setweight(to_tsvector('english', "what_happened"), 'B') ||
        setweight(to_tsvector('english', "root_cause" || ' ' || "recommendations"), 'C')
    ) STORED,

    CONSTRAINT "lessons_learned_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "playbooks_technique_id_type_idx" ON "playbooks"("technique_id", "type");

-- CreateIndex
CREATE INDEX "playbooks_type_idx" ON "playbooks"("type");

-- CreateIndex
CREATE INDEX "playbooks_updated_at_id_idx" ON "playbooks"("updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "playbooks_search_vector_idx" ON "playbooks" USING GIN ("search_vector");

-- CreateIndex
CREATE UNIQUE INDEX "playbook_versions_playbook_id_version_key" ON "playbook_versions"("playbook_id", "version");

-- CreateIndex
CREATE INDEX "lessons_learned_technique_id_severity_idx" ON "lessons_learned"("technique_id", "severity");

-- CreateIndex
CREATE INDEX "lessons_learned_severity_idx" ON "lessons_learned"("severity");

-- CreateIndex
CREATE INDEX "lessons_learned_test_id_idx" ON "lessons_learned"("test_id");

-- CreateIndex
CREATE INDEX "lessons_learned_campaign_id_idx" ON "lessons_learned"("campaign_id");

-- CreateIndex
CREATE INDEX "lessons_learned_created_at_id_idx" ON "lessons_learned"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "lessons_learned_search_vector_idx" ON "lessons_learned" USING GIN ("search_vector");

-- AddForeignKey
ALTER TABLE "playbooks" ADD CONSTRAINT "playbooks_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "playbooks" ADD CONSTRAINT "playbooks_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "playbooks" ADD CONSTRAINT "playbooks_updated_by_fkey" FOREIGN KEY ("updated_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "playbook_versions" ADD CONSTRAINT "playbook_versions_playbook_id_fkey" FOREIGN KEY ("playbook_id") REFERENCES "playbooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "playbook_versions" ADD CONSTRAINT "playbook_versions_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lessons_learned" ADD CONSTRAINT "lessons_learned_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lessons_learned" ADD CONSTRAINT "lessons_learned_test_id_fkey" FOREIGN KEY ("test_id") REFERENCES "tests"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lessons_learned" ADD CONSTRAINT "lessons_learned_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lessons_learned" ADD CONSTRAINT "lessons_learned_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
