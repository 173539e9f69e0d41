-- CreateEnum
CREATE TYPE "CampaignStatus" AS ENUM ('draft', 'active', 'completed');

-- DropIndex
DROP INDEX "tests_campaign_id_idx";

-- DropIndex
DROP INDEX "tests_technique_id_state_idx";

-- CreateTable
CREATE TABLE "campaigns" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "type" TEXT NOT NULL DEFAULT 'purple',
    "status" "CampaignStatus" NOT NULL DEFAULT 'draft',
    "threat_actor_id" UUID,
    "start_date" TIMESTAMPTZ(3),
    "end_date" TIMESTAMPTZ(3),
    "recurrence" TEXT,
    "activated_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "created_by" UUID NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_events" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "from_status" "CampaignStatus",
    "to_status" "CampaignStatus",
    "actor_id" UUID,
    "actor_name" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_executions" (
    "id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "occurrence" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "tests_created" INTEGER NOT NULL DEFAULT 0,
    "test_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "campaign_executions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "snapshots" (
    "id" UUID NOT NULL,
    "name" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'manual',
    "summary" JSONB NOT NULL DEFAULT '{}',
    "coverage_percentage" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "score" DOUBLE PRECISION,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "snapshot_techniques" (
    "snapshot_id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "ttp_id" TEXT NOT NULL,
    "status" "CoverageStatus" NOT NULL,
    "score" DOUBLE PRECISION,

    CONSTRAINT "snapshot_techniques_pkey" PRIMARY KEY ("snapshot_id","technique_id")
);

-- CreateTable
CREATE TABLE "score_config" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "weights" JSONB NOT NULL DEFAULT '{}',
    "updated_by" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "score_config_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "risk_profiles" (
    "technique_id" UUID NOT NULL,
    "impact" DOUBLE PRECISION NOT NULL,
    "likelihood" DOUBLE PRECISION NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "actor_count" INTEGER NOT NULL,
    "tactic_weight" DOUBLE PRECISION NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_profiles_pkey" PRIMARY KEY ("technique_id")
);

-- CreateIndex
CREATE INDEX "campaigns_status_created_at_idx" ON "campaigns"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "campaigns_created_at_idx" ON "campaigns"("created_at" DESC);

-- CreateIndex
CREATE INDEX "campaigns_type_idx" ON "campaigns"("type");

-- CreateIndex
CREATE INDEX "campaign_events_campaign_id_at_idx" ON "campaign_events"("campaign_id", "at");

-- CreateIndex
CREATE UNIQUE INDEX "campaign_executions_campaign_id_occurrence_key" ON "campaign_executions"("campaign_id", "occurrence");

-- CreateIndex
CREATE INDEX "snapshots_created_at_idx" ON "snapshots"("created_at" DESC);

-- CreateIndex
CREATE INDEX "snapshot_techniques_technique_id_idx" ON "snapshot_techniques"("technique_id");

-- CreateIndex
CREATE INDEX "risk_profiles_score_idx" ON "risk_profiles"("score" DESC);

-- CreateIndex
CREATE INDEX "tests_technique_id_state_decided_at_detection_result_idx" ON "tests"("technique_id", "state", "decided_at", "detection_result");

-- CreateIndex
CREATE INDEX "tests_campaign_id_state_idx" ON "tests"("campaign_id", "state");

-- CreateIndex
CREATE INDEX "tests_execution_date_idx" ON "tests"("execution_date");

-- CreateIndex
CREATE INDEX "tests_remediation_status_updated_at_idx" ON "tests"("remediation_status", "updated_at" DESC);

-- AddForeignKey
ALTER TABLE "tests" ADD CONSTRAINT "tests_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_threat_actor_id_fkey" FOREIGN KEY ("threat_actor_id") REFERENCES "threat_actors"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_events" ADD CONSTRAINT "campaign_events_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_executions" ADD CONSTRAINT "campaign_executions_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshot_techniques" ADD CONSTRAINT "snapshot_techniques_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "snapshots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshot_techniques" ADD CONSTRAINT "snapshot_techniques_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "risk_profiles" ADD CONSTRAINT "risk_profiles_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;
