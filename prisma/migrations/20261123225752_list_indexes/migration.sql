-- DropIndex
DROP INDEX "test_templates_ttp_technique_id_idx";

-- DropIndex
DROP INDEX "tests_assigned_to_idx";

-- DropIndex
DROP INDEX "tests_created_by_idx";

-- DropIndex
DROP INDEX "tests_updated_at_idx";

-- CreateIndex
CREATE INDEX "detection_rules_title_id_idx" ON "detection_rules"("title", "id");

-- CreateIndex
CREATE INDEX "test_templates_ttp_technique_id_name_id_idx" ON "test_templates"("ttp_technique_id", "name", "id");

-- CreateIndex
CREATE INDEX "tests_created_at_id_idx" ON "tests"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "tests_state_created_at_id_idx" ON "tests"("state", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "tests_technique_id_created_at_id_idx" ON "tests"("technique_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "tests_created_by_created_at_id_idx" ON "tests"("created_by", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "tests_assigned_to_created_at_id_idx" ON "tests"("assigned_to", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "tests_updated_at_id_idx" ON "tests"("updated_at" DESC, "id" DESC);
