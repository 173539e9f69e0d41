-- CreateEnum
CREATE TYPE "TrackerKind" AS ENUM ('jira_cloud', 'jira_dc', 'github');

-- CreateEnum
CREATE TYPE "TrackerSubject" AS ENUM ('test', 'alert');

-- CreateEnum
CREATE TYPE "TrackerLinkStatus" AS ENUM ('pending', 'open', 'fixed', 'wont_fix', 'reopened');

-- CreateTable
CREATE TABLE "tracker_connections" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "TrackerKind" NOT NULL,
    "base_url" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "issue_type" TEXT NOT NULL DEFAULT 'Task',
    "username" TEXT,
    "credential_sealed" TEXT NOT NULL,
    "webhook_secret_sealed" TEXT,
    "field_mapping" JSONB NOT NULL DEFAULT '{}',
    "status_mapping" JSONB NOT NULL DEFAULT '{}',
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),
    "last_sync_at" TIMESTAMPTZ(3),
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tracker_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tracker_links" (
    "id" UUID NOT NULL,
    "connection_id" UUID NOT NULL,
    "subject_type" "TrackerSubject" NOT NULL,
    "subject_id" UUID NOT NULL,
    "test_id" UUID,
    "status" "TrackerLinkStatus" NOT NULL DEFAULT 'pending',
    "issue_key" TEXT,
    "issue_url" TEXT,
    "tracker_status" TEXT,
    "assignee_account_id" TEXT,
    "retest_id" UUID,
    "pending_action" TEXT,
    "pending_comment" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_synced_at" TIMESTAMPTZ(3),
    "fixed_at" TIMESTAMPTZ(3),
    "reopened_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tracker_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tracker_connections_name_key" ON "tracker_connections"("name");

-- CreateIndex
CREATE INDEX "tracker_links_retest_id_idx" ON "tracker_links"("retest_id");

-- CreateIndex
CREATE INDEX "tracker_links_status_next_attempt_at_idx" ON "tracker_links"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "tracker_links_test_id_idx" ON "tracker_links"("test_id");

-- CreateIndex
CREATE UNIQUE INDEX "tracker_links_subject_type_subject_id_key" ON "tracker_links"("subject_type", "subject_id");

-- CreateIndex
CREATE UNIQUE INDEX "tracker_links_connection_id_issue_key_key" ON "tracker_links"("connection_id", "issue_key");

-- AddForeignKey
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "tracker_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_test_id_fkey" FOREIGN KEY ("test_id") REFERENCES "tests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
