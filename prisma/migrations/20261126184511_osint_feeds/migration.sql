-- CreateEnum
CREATE TYPE "OsintFeedKind" AS ENUM ('rss', 'atom', 'stix', 'taxii');

-- CreateEnum
CREATE TYPE "OsintReviewStatus" AS ENUM ('not_flagged', 'flagged', 'reviewed', 'dismissed');

-- AlterEnum
ALTER TYPE "AlertRuleType" ADD VALUE 'osint_uncovered_technique';

-- CreateTable
CREATE TABLE "osint_feeds" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "OsintFeedKind" NOT NULL,
    "location" TEXT NOT NULL,
    "collection" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "schedule" TEXT,
    "status" "SyncStatus" NOT NULL DEFAULT 'never_run',
    "error" TEXT,
    "last_run_at" TIMESTAMPTZ(3),
    "last_success_at" TIMESTAMPTZ(3),
    "lease_expires_at" TIMESTAMPTZ(3),
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "osint_feeds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "osint_feed_runs" (
    "id" UUID NOT NULL,
    "feed_id" UUID NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" "SyncStatus" NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "items_seen" INTEGER NOT NULL DEFAULT 0,
    "items_added" INTEGER NOT NULL DEFAULT 0,
    "flagged" INTEGER NOT NULL DEFAULT 0,
    "notes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "error" TEXT,
    "triggered_by" UUID,

    CONSTRAINT "osint_feed_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "osint_items" (
    "id" UUID NOT NULL,
    "feed_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "link" TEXT,
    "published_at" TIMESTAMPTZ(3),
    "technique_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "group_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "software_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "cve_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "review" "OsintReviewStatus" NOT NULL DEFAULT 'not_flagged',
    "reviewed_at" TIMESTAMPTZ(3),
    "reviewed_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "osint_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "osint_item_techniques" (
    "item_id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "mentioned" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "osint_item_techniques_pkey" PRIMARY KEY ("item_id","technique_id")
);

-- CreateTable
CREATE TABLE "osint_item_actors" (
    "item_id" UUID NOT NULL,
    "actor_id" UUID NOT NULL,
    "mentioned" TEXT NOT NULL,

    CONSTRAINT "osint_item_actors_pkey" PRIMARY KEY ("item_id","actor_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "osint_feeds_name_key" ON "osint_feeds"("name");

-- CreateIndex
CREATE INDEX "osint_feed_runs_feed_id_started_at_idx" ON "osint_feed_runs"("feed_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "osint_items_created_at_idx" ON "osint_items"("created_at" DESC);

-- CreateIndex
CREATE INDEX "osint_items_published_at_idx" ON "osint_items"("published_at" DESC);

-- CreateIndex
CREATE INDEX "osint_items_review_idx" ON "osint_items"("review");

-- CreateIndex
CREATE UNIQUE INDEX "osint_items_feed_id_key_key" ON "osint_items"("feed_id", "key");

-- CreateIndex
CREATE INDEX "osint_item_techniques_technique_id_created_at_idx" ON "osint_item_techniques"("technique_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "osint_item_actors_actor_id_idx" ON "osint_item_actors"("actor_id");

-- AddForeignKey
ALTER TABLE "osint_feed_runs" ADD CONSTRAINT "osint_feed_runs_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "osint_feeds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "osint_items" ADD CONSTRAINT "osint_items_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "osint_feeds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "osint_item_techniques" ADD CONSTRAINT "osint_item_techniques_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "osint_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "osint_item_techniques" ADD CONSTRAINT "osint_item_techniques_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "osint_item_actors" ADD CONSTRAINT "osint_item_actors_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "osint_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "osint_item_actors" ADD CONSTRAINT "osint_item_actors_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "threat_actors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
