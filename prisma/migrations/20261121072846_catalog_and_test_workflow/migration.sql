-- CreateEnum
CREATE TYPE "Severity" AS ENUM ('informational', 'low', 'medium', 'high', 'critical');

-- CreateEnum
CREATE TYPE "DataSourceKind" AS ENUM ('attack_enterprise', 'd3fend', 'nist_800_53', 'csa_ccm', 'atomic_red_team', 'sigma');

-- CreateEnum
CREATE TYPE "SyncStatus" AS ENUM ('never_run', 'queued', 'running', 'succeeded', 'failed');

-- CreateEnum
CREATE TYPE "TestState" AS ENUM ('draft', 'red_executing', 'blue_evaluating', 'in_review', 'rejected', 'validated');

-- CreateEnum
CREATE TYPE "DetectionResult" AS ENUM ('detected', 'not_detected', 'partially_detected');

-- CreateEnum
CREATE TYPE "ValidationStatus" AS ENUM ('approved', 'rejected');

-- CreateEnum
CREATE TYPE "RemediationStatus" AS ENUM ('pending', 'in_progress', 'completed', 'not_applicable');

-- CreateEnum
CREATE TYPE "Team" AS ENUM ('red', 'blue');

-- AlterTable
ALTER TABLE "techniques" ADD COLUMN     "attack_modified" TIMESTAMPTZ(3),
ADD COLUMN     "attack_version" TEXT,
ADD COLUMN     "deprecated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "is_subtechnique" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "parent_ttp_id" TEXT,
ADD COLUMN     "revoked" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "stix_id" TEXT,
ADD COLUMN     "tactics" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "url" TEXT;

-- CreateTable
CREATE TABLE "tactics" (
    "id" UUID NOT NULL,
    "stix_id" TEXT,
    "external_id" TEXT NOT NULL,
    "short_name" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "matrix_order" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tactics_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mitigations" (
    "id" UUID NOT NULL,
    "stix_id" TEXT NOT NULL,
    "external_id" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "deprecated" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mitigations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "technique_mitigations" (
    "technique_id" UUID NOT NULL,
    "mitigation_id" UUID NOT NULL,
    "stix_id" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "technique_mitigations_pkey" PRIMARY KEY ("technique_id","mitigation_id")
);

-- CreateTable
CREATE TABLE "threat_actors" (
    "id" UUID NOT NULL,
    "stix_id" TEXT NOT NULL,
    "external_id" TEXT,
    "name" TEXT NOT NULL,
    "aliases" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "description" TEXT NOT NULL DEFAULT '',
    "motivation" TEXT,
    "motivations" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "country" TEXT,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "deprecated" BOOLEAN NOT NULL DEFAULT false,
    "attack_modified" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "threat_actors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "threat_actor_techniques" (
    "id" UUID NOT NULL,
    "stix_id" TEXT NOT NULL,
    "actor_id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "procedure" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "scanned_at" TIMESTAMPTZ(3),

    CONSTRAINT "threat_actor_techniques_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "intel_scans" (
    "id" UUID NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "baseline" BOOLEAN NOT NULL DEFAULT false,
    "new_items" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "intel_scans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "intel_findings" (
    "id" UUID NOT NULL,
    "scan_id" UUID NOT NULL,
    "actor_technique_id" UUID NOT NULL,
    "actor_id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "intel_findings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "defensive_techniques" (
    "id" UUID NOT NULL,
    "d3fend_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tactic" TEXT NOT NULL,
    "parent" TEXT,
    "top_level" TEXT,
    "definition" TEXT NOT NULL DEFAULT '',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "defensive_techniques_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "countermeasure_mappings" (
    "id" UUID NOT NULL,
    "defensive_technique_id" UUID NOT NULL,
    "attack_id" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "countermeasure_mappings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "compliance_frameworks" (
    "id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "attack_version" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "compliance_frameworks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "compliance_controls" (
    "id" UUID NOT NULL,
    "framework_id" UUID NOT NULL,
    "control_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "family" TEXT,

    CONSTRAINT "compliance_controls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "compliance_mappings" (
    "id" UUID NOT NULL,
    "control_id" UUID NOT NULL,
    "attack_id" TEXT NOT NULL,
    "mapping_type" TEXT NOT NULL DEFAULT 'mitigates',
    "comments" TEXT,

    CONSTRAINT "compliance_mappings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_templates" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "ttp_technique_id" TEXT,
    "platform" TEXT,
    "platforms" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "severity" "Severity" NOT NULL DEFAULT 'medium',
    "source" TEXT NOT NULL DEFAULT 'manual',
    "executor" TEXT,
    "procedure" TEXT NOT NULL DEFAULT '',
    "cleanup_command" TEXT,
    "elevation_required" BOOLEAN NOT NULL DEFAULT false,
    "input_arguments" JSONB NOT NULL DEFAULT '{}',
    "tool_used" TEXT,
    "suggested_remediation" TEXT NOT NULL DEFAULT '',
    "external_id" TEXT,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "test_templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "detection_rules" (
    "id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "source" TEXT NOT NULL DEFAULT 'custom',
    "ttp_technique_id" TEXT,
    "technique_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "severity" "Severity" NOT NULL DEFAULT 'medium',
    "status" TEXT,
    "log_source" JSONB NOT NULL DEFAULT '{}',
    "content" TEXT NOT NULL DEFAULT '',
    "external_id" TEXT,
    "author" TEXT,
    "references" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "license" TEXT,
    "source_url" TEXT,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "detection_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "detection_evaluations" (
    "id" UUID NOT NULL,
    "rule_id" UUID,
    "test_id" UUID NOT NULL,
    "triggered" BOOLEAN NOT NULL,
    "notes" TEXT,
    "rule_title" TEXT NOT NULL,
    "rule_source" TEXT NOT NULL,
    "rule_external_id" TEXT,
    "rule_author" TEXT,
    "evaluated_by" UUID,
    "evaluated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "detection_evaluations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "data_sources" (
    "id" UUID NOT NULL,
    "kind" "DataSourceKind" NOT NULL,
    "name" TEXT NOT NULL,
    "location" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "schedule" TEXT,
    "status" "SyncStatus" NOT NULL DEFAULT 'never_run',
    "error" TEXT,
    "last_run_at" TIMESTAMPTZ(3),
    "last_success_at" TIMESTAMPTZ(3),
    "item_counts" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "data_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "data_source_runs" (
    "id" UUID NOT NULL,
    "data_source_id" UUID NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" "SyncStatus" NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "changes" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "triggered_by" UUID,

    CONSTRAINT "data_source_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tests" (
    "id" UUID NOT NULL,
    "technique_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "platform" TEXT,
    "procedure_text" TEXT,
    "tool_used" TEXT,
    "attack_success" BOOLEAN,
    "red_summary" TEXT,
    "detection_result" "DetectionResult",
    "blue_summary" TEXT,
    "state" "TestState" NOT NULL DEFAULT 'draft',
    "execution_date" TIMESTAMPTZ(3),
    "red_submitted_at" TIMESTAMPTZ(3),
    "blue_submitted_at" TIMESTAMPTZ(3),
    "red_validation_status" "ValidationStatus",
    "red_validation_notes" TEXT,
    "red_validated_by" UUID,
    "red_validated_at" TIMESTAMPTZ(3),
    "blue_validation_status" "ValidationStatus",
    "blue_validation_notes" TEXT,
    "blue_validated_by" UUID,
    "blue_validated_at" TIMESTAMPTZ(3),
    "decided_at" TIMESTAMPTZ(3),
    "remediation_steps" TEXT,
    "remediation_status" "RemediationStatus",
    "remediation_assignee" UUID,
    "remediation_completed_at" TIMESTAMPTZ(3),
    "data_classification" TEXT,
    "created_by" UUID NOT NULL,
    "assigned_to" UUID,
    "campaign_id" UUID,
    "template_id" UUID,
    "retest_of" UUID,
    "lineage_id" UUID NOT NULL,
    "elapsed_ms" BIGINT NOT NULL DEFAULT 0,
    "timer_started_at" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_events" (
    "id" UUID NOT NULL,
    "test_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "from_state" "TestState",
    "to_state" "TestState",
    "actor_id" UUID,
    "actor_name" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evidence" (
    "id" UUID NOT NULL,
    "test_id" UUID NOT NULL,
    "team" "Team" NOT NULL,
    "file_name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size_bytes" BIGINT NOT NULL,
    "sha256_hash" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "uploaded_by" UUID,
    "uploaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evidence_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tactics_stix_id_key" ON "tactics"("stix_id");

-- CreateIndex
CREATE UNIQUE INDEX "tactics_external_id_key" ON "tactics"("external_id");

-- CreateIndex
CREATE UNIQUE INDEX "tactics_short_name_key" ON "tactics"("short_name");

-- CreateIndex
CREATE UNIQUE INDEX "mitigations_stix_id_key" ON "mitigations"("stix_id");

-- CreateIndex
CREATE INDEX "mitigations_external_id_idx" ON "mitigations"("external_id");

-- CreateIndex
CREATE UNIQUE INDEX "technique_mitigations_stix_id_key" ON "technique_mitigations"("stix_id");

-- CreateIndex
CREATE INDEX "technique_mitigations_mitigation_id_idx" ON "technique_mitigations"("mitigation_id");

-- CreateIndex
CREATE UNIQUE INDEX "threat_actors_stix_id_key" ON "threat_actors"("stix_id");

-- CreateIndex
CREATE INDEX "threat_actors_name_idx" ON "threat_actors"("name");

-- CreateIndex
CREATE INDEX "threat_actors_country_idx" ON "threat_actors"("country");

-- CreateIndex
CREATE INDEX "threat_actors_motivation_idx" ON "threat_actors"("motivation");

-- CreateIndex
CREATE UNIQUE INDEX "threat_actor_techniques_stix_id_key" ON "threat_actor_techniques"("stix_id");

-- CreateIndex
CREATE INDEX "threat_actor_techniques_actor_id_idx" ON "threat_actor_techniques"("actor_id");

-- CreateIndex
CREATE INDEX "threat_actor_techniques_technique_id_idx" ON "threat_actor_techniques"("technique_id");

-- CreateIndex
CREATE INDEX "threat_actor_techniques_scanned_at_idx" ON "threat_actor_techniques"("scanned_at");

-- CreateIndex
CREATE UNIQUE INDEX "intel_findings_actor_technique_id_key" ON "intel_findings"("actor_technique_id");

-- CreateIndex
CREATE INDEX "intel_findings_technique_id_idx" ON "intel_findings"("technique_id");

-- CreateIndex
CREATE INDEX "intel_findings_created_at_idx" ON "intel_findings"("created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "defensive_techniques_d3fend_id_key" ON "defensive_techniques"("d3fend_id");

-- CreateIndex
CREATE INDEX "defensive_techniques_tactic_idx" ON "defensive_techniques"("tactic");

-- CreateIndex
CREATE INDEX "countermeasure_mappings_attack_id_idx" ON "countermeasure_mappings"("attack_id");

-- CreateIndex
CREATE UNIQUE INDEX "countermeasure_mappings_defensive_technique_id_attack_id_key" ON "countermeasure_mappings"("defensive_technique_id", "attack_id");

-- CreateIndex
CREATE UNIQUE INDEX "compliance_frameworks_key_key" ON "compliance_frameworks"("key");

-- CreateIndex
CREATE UNIQUE INDEX "compliance_controls_framework_id_control_id_key" ON "compliance_controls"("framework_id", "control_id");

-- CreateIndex
CREATE INDEX "compliance_mappings_attack_id_idx" ON "compliance_mappings"("attack_id");

-- CreateIndex
CREATE UNIQUE INDEX "compliance_mappings_control_id_attack_id_mapping_type_key" ON "compliance_mappings"("control_id", "attack_id", "mapping_type");

-- CreateIndex
CREATE INDEX "test_templates_ttp_technique_id_idx" ON "test_templates"("ttp_technique_id");

-- CreateIndex
CREATE INDEX "test_templates_platform_idx" ON "test_templates"("platform");

-- CreateIndex
CREATE UNIQUE INDEX "test_templates_source_external_id_key" ON "test_templates"("source", "external_id");

-- CreateIndex
CREATE INDEX "detection_rules_ttp_technique_id_idx" ON "detection_rules"("ttp_technique_id");

-- CreateIndex
CREATE INDEX "detection_rules_technique_ids_idx" ON "detection_rules" USING GIN ("technique_ids");

-- CreateIndex
CREATE UNIQUE INDEX "detection_rules_source_external_id_key" ON "detection_rules"("source", "external_id");

-- CreateIndex
CREATE INDEX "detection_evaluations_test_id_evaluated_at_idx" ON "detection_evaluations"("test_id", "evaluated_at");

-- CreateIndex
CREATE INDEX "detection_evaluations_rule_id_idx" ON "detection_evaluations"("rule_id");

-- CreateIndex
CREATE UNIQUE INDEX "data_sources_kind_key" ON "data_sources"("kind");

-- CreateIndex
CREATE INDEX "data_source_runs_data_source_id_started_at_idx" ON "data_source_runs"("data_source_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "tests_state_updated_at_idx" ON "tests"("state", "updated_at" DESC);

-- CreateIndex
CREATE INDEX "tests_technique_id_state_idx" ON "tests"("technique_id", "state");

-- CreateIndex
CREATE INDEX "tests_campaign_id_idx" ON "tests"("campaign_id");

-- CreateIndex
CREATE INDEX "tests_created_by_idx" ON "tests"("created_by");

-- CreateIndex
CREATE INDEX "tests_assigned_to_idx" ON "tests"("assigned_to");

-- CreateIndex
CREATE INDEX "tests_lineage_id_created_at_idx" ON "tests"("lineage_id", "created_at");

-- CreateIndex
CREATE INDEX "tests_updated_at_idx" ON "tests"("updated_at" DESC);

-- CreateIndex
CREATE INDEX "test_events_test_id_at_idx" ON "test_events"("test_id", "at");

-- CreateIndex
CREATE INDEX "test_events_kind_at_idx" ON "test_events"("kind", "at");

-- CreateIndex
CREATE UNIQUE INDEX "evidence_storage_key_key" ON "evidence"("storage_key");

-- CreateIndex
CREATE INDEX "evidence_test_id_uploaded_at_idx" ON "evidence"("test_id", "uploaded_at");

-- CreateIndex
CREATE UNIQUE INDEX "techniques_stix_id_key" ON "techniques"("stix_id");

-- CreateIndex
CREATE INDEX "techniques_tactics_idx" ON "techniques" USING GIN ("tactics");

-- CreateIndex
CREATE INDEX "techniques_parent_ttp_id_idx" ON "techniques"("parent_ttp_id");

-- AddForeignKey
ALTER TABLE "technique_mitigations" ADD CONSTRAINT "technique_mitigations_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "technique_mitigations" ADD CONSTRAINT "technique_mitigations_mitigation_id_fkey" FOREIGN KEY ("mitigation_id") REFERENCES "mitigations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "threat_actor_techniques" ADD CONSTRAINT "threat_actor_techniques_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "threat_actors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "threat_actor_techniques" ADD CONSTRAINT "threat_actor_techniques_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intel_findings" ADD CONSTRAINT "intel_findings_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "intel_scans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intel_findings" ADD CONSTRAINT "intel_findings_actor_technique_id_fkey" FOREIGN KEY ("actor_technique_id") REFERENCES "threat_actor_techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intel_findings" ADD CONSTRAINT "intel_findings_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "threat_actors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "intel_findings" ADD CONSTRAINT "intel_findings_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "countermeasure_mappings" ADD CONSTRAINT "countermeasure_mappings_defensive_technique_id_fkey" FOREIGN KEY ("defensive_technique_id") REFERENCES "defensive_techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "compliance_controls" ADD CONSTRAINT "compliance_controls_framework_id_fkey" FOREIGN KEY ("framework_id") REFERENCES "compliance_frameworks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "compliance_mappings" ADD CONSTRAINT "compliance_mappings_control_id_fkey" FOREIGN KEY ("control_id") REFERENCES "compliance_controls"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "detection_evaluations" ADD CONSTRAINT "detection_evaluations_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "detection_rules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "detection_evaluations" ADD CONSTRAINT "detection_evaluations_test_id_fkey" FOREIGN KEY ("test_id") REFERENCES "tests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "data_source_runs" ADD CONSTRAINT "data_source_runs_data_source_id_fkey" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tests" ADD CONSTRAINT "tests_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tests" ADD CONSTRAINT "tests_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tests" ADD CONSTRAINT "tests_assigned_to_fkey" FOREIGN KEY ("assigned_to") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tests" ADD CONSTRAINT "tests_remediation_assignee_fkey" FOREIGN KEY ("remediation_assignee") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tests" ADD CONSTRAINT "tests_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "test_templates"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tests" ADD CONSTRAINT "tests_retest_of_fkey" FOREIGN KEY ("retest_of") REFERENCES "tests"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_events" ADD CONSTRAINT "test_events_test_id_fkey" FOREIGN KEY ("test_id") REFERENCES "tests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_test_id_fkey" FOREIGN KEY ("test_id") REFERENCES "tests"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_uploaded_by_fkey" FOREIGN KEY ("uploaded_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
