-- CreateEnum
CREATE TYPE "DetectionAssetKind" AS ENUM ('siem_rule', 'edr_policy', 'ids_signature', 'log_source', 'other');

-- CreateEnum
CREATE TYPE "DetectionAssetStatus" AS ENUM ('active', 'disabled', 'retired');

-- CreateEnum
CREATE TYPE "Responsibility" AS ENUM ('red', 'blue', 'both');

-- CreateEnum
CREATE TYPE "RevalidationReason" AS ENUM ('validation_expired', 'validation_invalidated', 'infrastructure_change', 'coverage_stale');

-- CreateEnum
CREATE TYPE "AlertRuleType" AS ENUM ('coverage_below', 'coverage_drop', 'validation_expired', 'actor_technique_uncovered', 'confidence_below', 'rejected_tests');

-- CreateEnum
CREATE TYPE "AlertStatus" AS ENUM ('open', 'acknowledged', 'resolved', 'dismissed');

-- CreateTable
CREATE TABLE "detection_assets" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "DetectionAssetKind" NOT NULL,
    "platform" TEXT,
    "description" TEXT,
    "status" "DetectionAssetStatus" NOT NULL DEFAULT 'active',
    "owner_id" UUID,
    "detection_rule_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "detection_assets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "detection_asset_techniques" (
    "asset_id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "linked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "detection_asset_techniques_pkey" PRIMARY KEY ("asset_id","technique_id")
);

-- CreateTable
CREATE TABLE "detection_validations" (
    "id" UUID NOT NULL,
    "asset_id" UUID,
    "technique_id" UUID NOT NULL,
    "test_id" UUID,
    "source" TEXT NOT NULL DEFAULT 'manual',
    "result" TEXT NOT NULL DEFAULT 'detected',
    "notes" TEXT,
    "validated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "valid_until" TIMESTAMPTZ(3) NOT NULL,
    "invalidated_at" TIMESTAMPTZ(3),
    "invalidated_reason" TEXT,
    "invalidated_by_change_id" UUID,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "detection_validations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "infrastructure_changes" (
    "id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,
    "platforms" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "asset_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "technique_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "infrastructure_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ownership_assignments" (
    "id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "team" TEXT,
    "responsibility" "Responsibility" NOT NULL,
    "due_date" DATE,
    "notes" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ownership_assignments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "owned_assets" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "platform" TEXT,
    "criticality" "Severity" NOT NULL DEFAULT 'medium',
    "owner_id" UUID,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "owned_assets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "revalidation_entries" (
    "id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "reason" "RevalidationReason" NOT NULL,
    "detail" TEXT NOT NULL,
    "risk_score" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "revalidation_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rules" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "rule_type" "AlertRuleType" NOT NULL,
    "severity" "Severity" NOT NULL,
    "parameters" JSONB NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "cooldown_minutes" INTEGER NOT NULL DEFAULT 60,
    "created_by" UUID,
    "last_evaluated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_instances" (
    "id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "rule_type" "AlertRuleType" NOT NULL,
    "severity" "Severity" NOT NULL,
    "subject" TEXT NOT NULL,
    "technique_id" UUID,
    "title" TEXT NOT NULL,
    "figures" JSONB NOT NULL DEFAULT '{}',
    "status" "AlertStatus" NOT NULL DEFAULT 'open',
    "fired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acknowledged_at" TIMESTAMPTZ(3),
    "resolved_at" TIMESTAMPTZ(3),
    "dismissed_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "changed_by" UUID,
    "note" TEXT,

    CONSTRAINT "alert_instances_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "detection_assets_status_idx" ON "detection_assets"("status");

-- CreateIndex
CREATE INDEX "detection_assets_platform_idx" ON "detection_assets"("platform");

-- CreateIndex
CREATE INDEX "detection_asset_techniques_technique_id_idx" ON "detection_asset_techniques"("technique_id");

-- CreateIndex
CREATE INDEX "detection_validations_technique_id_validated_at_idx" ON "detection_validations"("technique_id", "validated_at" DESC);

-- CreateIndex
CREATE INDEX "detection_validations_asset_id_idx" ON "detection_validations"("asset_id");

-- CreateIndex
CREATE UNIQUE INDEX "detection_validations_test_id_asset_id_key" ON "detection_validations"("test_id", "asset_id");

-- CreateIndex
CREATE INDEX "infrastructure_changes_changed_at_idx" ON "infrastructure_changes"("changed_at" DESC);

-- CreateIndex
CREATE INDEX "ownership_assignments_owner_id_idx" ON "ownership_assignments"("owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "ownership_assignments_technique_id_responsibility_key" ON "ownership_assignments"("technique_id", "responsibility");

-- CreateIndex
CREATE INDEX "revalidation_entries_risk_score_idx" ON "revalidation_entries"("risk_score" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "revalidation_entries_technique_id_reason_key" ON "revalidation_entries"("technique_id", "reason");

-- CreateIndex
CREATE INDEX "alert_instances_rule_id_subject_status_idx" ON "alert_instances"("rule_id", "subject", "status");

-- CreateIndex
CREATE INDEX "alert_instances_status_severity_idx" ON "alert_instances"("status", "severity");

-- CreateIndex
CREATE INDEX "alert_instances_fired_at_idx" ON "alert_instances"("fired_at" DESC);

-- AddForeignKey
ALTER TABLE "detection_assets" ADD CONSTRAINT "detection_assets_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "detection_assets" ADD CONSTRAINT "detection_assets_detection_rule_id_fkey" FOREIGN KEY ("detection_rule_id") REFERENCES "detection_rules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "detection_asset_techniques" ADD CONSTRAINT "detection_asset_techniques_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "detection_assets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "detection_asset_techniques" ADD CONSTRAINT "detection_asset_techniques_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "detection_validations" ADD CONSTRAINT "detection_validations_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "detection_assets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "detection_validations" ADD CONSTRAINT "detection_validations_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "detection_validations" ADD CONSTRAINT "detection_validations_invalidated_by_change_id_fkey" FOREIGN KEY ("invalidated_by_change_id") REFERENCES "infrastructure_changes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ownership_assignments" ADD CONSTRAINT "ownership_assignments_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ownership_assignments" ADD CONSTRAINT "ownership_assignments_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "owned_assets" ADD CONSTRAINT "owned_assets_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revalidation_entries" ADD CONSTRAINT "revalidation_entries_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_instances" ADD CONSTRAINT "alert_instances_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
