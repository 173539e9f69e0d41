-- CreateEnum
CREATE TYPE "AttackStepExpectation" AS ENUM ('detected', 'blocked', 'not_detected');

-- CreateEnum
CREATE TYPE "AttackStepOutcome" AS ENUM ('succeeded', 'blocked', 'detected', 'not_detected', 'skipped');

-- CreateEnum
CREATE TYPE "AttackPathExecutionStatus" AS ENUM ('pending', 'running', 'completed', 'aborted');

-- CreateTable
CREATE TABLE "attack_paths" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_by" UUID NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "attack_paths_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attack_path_steps" (
    "id" UUID NOT NULL,
    "path_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "technique_id" UUID NOT NULL,
    "template_id" UUID,
    "expected_outcome" "AttackStepExpectation" NOT NULL DEFAULT 'detected',
    "notes" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attack_path_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attack_path_executions" (
    "id" UUID NOT NULL,
    "path_id" UUID,
    "path_name" TEXT NOT NULL,
    "status" "AttackPathExecutionStatus" NOT NULL DEFAULT 'pending',
    "notes" TEXT,
    "created_by" UUID NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "aborted_at" TIMESTAMPTZ(3),
    "abort_reason" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "attack_path_executions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attack_path_execution_steps" (
    "id" UUID NOT NULL,
    "execution_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "source_step_id" UUID,
    "technique_id" UUID NOT NULL,
    "ttp_id" TEXT NOT NULL,
    "technique_name" TEXT NOT NULL,
    "template_id" UUID,
    "expected_outcome" "AttackStepExpectation" NOT NULL,
    "notes" TEXT,
    "outcome" "AttackStepOutcome",
    "outcome_notes" TEXT,
    "occurred_at" TIMESTAMPTZ(3),
    "recorded_by" UUID,
    "recorded_at" TIMESTAMPTZ(3),
    "test_id" UUID,

    CONSTRAINT "attack_path_execution_steps_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "attack_paths_created_at_id_idx" ON "attack_paths"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "attack_path_steps_technique_id_idx" ON "attack_path_steps"("technique_id");

-- CreateIndex
CREATE INDEX "attack_path_steps_template_id_idx" ON "attack_path_steps"("template_id");

-- CreateIndex
CREATE UNIQUE INDEX "attack_path_steps_path_id_position_key" ON "attack_path_steps"("path_id", "position");

-- CreateIndex
CREATE INDEX "attack_path_executions_path_id_created_at_id_idx" ON "attack_path_executions"("path_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "attack_path_execution_steps_source_step_id_idx" ON "attack_path_execution_steps"("source_step_id");

-- CreateIndex
CREATE INDEX "attack_path_execution_steps_technique_id_idx" ON "attack_path_execution_steps"("technique_id");

-- CreateIndex
CREATE INDEX "attack_path_execution_steps_template_id_idx" ON "attack_path_execution_steps"("template_id");

-- CreateIndex
CREATE INDEX "attack_path_execution_steps_test_id_idx" ON "attack_path_execution_steps"("test_id");

-- CreateIndex
CREATE UNIQUE INDEX "attack_path_execution_steps_execution_id_position_key" ON "attack_path_execution_steps"("execution_id", "position");

-- AddForeignKey
ALTER TABLE "attack_paths" ADD CONSTRAINT "attack_paths_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_steps" ADD CONSTRAINT "attack_path_steps_path_id_fkey" FOREIGN KEY ("path_id") REFERENCES "attack_paths"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_steps" ADD CONSTRAINT "attack_path_steps_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_steps" ADD CONSTRAINT "attack_path_steps_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "test_templates"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_executions" ADD CONSTRAINT "attack_path_executions_path_id_fkey" FOREIGN KEY ("path_id") REFERENCES "attack_paths"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_executions" ADD CONSTRAINT "attack_path_executions_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_execution_steps" ADD CONSTRAINT "attack_path_execution_steps_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "attack_path_executions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_execution_steps" ADD CONSTRAINT "attack_path_execution_steps_source_step_id_fkey" FOREIGN KEY ("source_step_id") REFERENCES "attack_path_steps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_execution_steps" ADD CONSTRAINT "attack_path_execution_steps_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_execution_steps" ADD CONSTRAINT "attack_path_execution_steps_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "test_templates"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_execution_steps" ADD CONSTRAINT "attack_path_execution_steps_recorded_by_fkey" FOREIGN KEY ("recorded_by") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attack_path_execution_steps" ADD CONSTRAINT "attack_path_execution_steps_test_id_fkey" FOREIGN KEY ("test_id") REFERENCES "tests"("id") ON DELETE SET NULL ON UPDATE CASCADE;
