-- CreateTable
CREATE TABLE "test_outcomes" (
    "test_id" UUID NOT NULL,
    "detection_result" "DetectionResult",
    "attack_success" BOOLEAN,
    "blue_submitted_at" TIMESTAMPTZ(3),
    "remediation_completed_at" TIMESTAMPTZ(3),
    "is_result" BOOLEAN NOT NULL,
    "is_execution" BOOLEAN NOT NULL,
    "detect_seconds" DOUBLE PRECISION,
    "evaluation_seconds" DOUBLE PRECISION,
    "execution_seconds" DOUBLE PRECISION,
    "repair_hours" DOUBLE PRECISION,

    CONSTRAINT "test_outcomes_pkey" PRIMARY KEY ("test_id")
);

-- AddForeignKey
ALTER TABLE "test_outcomes" ADD CONSTRAINT "test_outcomes_test_id_fkey" FOREIGN KEY ("test_id") REFERENCES "tests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The outcome of one test (no row for a test in another state). The single definition of what each KPI counts:
-- * a standing result: the blue detection result is recorded and not refused by a lead (a rejected test awaits
--   rework, a reopened one is being redone); MTTD, efficacy and the blue figures read these;
-- * a standing execution: the red side is submitted and the test is not rejected or redone;
-- * a repair: a not_detected result (gap known at blue submission) or a rejected test (gap known when decided)
--   whose remediation was completed, in hours from the gap to the completion.
-- A duration is null when either end is missing or the end precedes the start.
CREATE FUNCTION "test_outcome"(t "tests") RETURNS SETOF "test_outcomes" LANGUAGE sql IMMUTABLE AS $$
  SELECT t.id, t.detection_result, t.attack_success, t.blue_submitted_at, t.remediation_completed_at,
         facts.is_result, facts.is_execution,
         CASE WHEN facts.is_result AND t.detection_result IN ('detected', 'partially_detected')
                   AND t.blue_submitted_at >= t.execution_date
              THEN date_part('epoch', t.blue_submitted_at - t.execution_date) END,
         CASE WHEN facts.is_result AND t.blue_submitted_at >= t.red_submitted_at
              THEN date_part('epoch', t.blue_submitted_at - t.red_submitted_at) END,
         CASE WHEN facts.is_execution AND t.red_submitted_at >= t.execution_date
              THEN date_part('epoch', t.red_submitted_at - t.execution_date) END,
         CASE WHEN t.remediation_completed_at >= facts.gap_at
              THEN date_part('epoch', t.remediation_completed_at - facts.gap_at) / 3600 END
    FROM (SELECT t.state IN ('in_review', 'validated') AND t.detection_result IS NOT NULL
                   AND t.blue_submitted_at IS NOT NULL AS is_result,
                 t.state IN ('blue_evaluating', 'in_review', 'validated') AND t.red_submitted_at IS NOT NULL AS is_execution,
                 CASE WHEN t.state NOT IN ('in_review', 'validated', 'rejected') THEN NULL
                      WHEN t.detection_result = 'not_detected' AND t.blue_submitted_at IS NOT NULL THEN t.blue_submitted_at
                      WHEN t.state = 'rejected' THEN t.decided_at END AS gap_at) facts
   WHERE t.state IN ('blue_evaluating', 'in_review', 'validated', 'rejected')
$$;

-- Rewrites the outcomes of the tests a statement inserted or updated (deleted tests cascade).
CREATE FUNCTION "refresh_test_outcomes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "test_outcomes" o USING "changed_tests" c WHERE o.test_id = c.id;
  INSERT INTO "test_outcomes" SELECT o.* FROM "changed_tests" c CROSS JOIN LATERAL "test_outcome"(c) o;
  RETURN NULL;
END
$$;

CREATE TRIGGER "tests_refresh_outcomes_on_insert" AFTER INSERT ON "tests"
  REFERENCING NEW TABLE AS "changed_tests" FOR EACH STATEMENT EXECUTE FUNCTION "refresh_test_outcomes"();
CREATE TRIGGER "tests_refresh_outcomes_on_update" AFTER UPDATE ON "tests"
  REFERENCING NEW TABLE AS "changed_tests" FOR EACH STATEMENT EXECUTE FUNCTION "refresh_test_outcomes"();

-- The tests that exist already.
INSERT INTO "test_outcomes" SELECT o.* FROM "tests" t CROSS JOIN LATERAL "test_outcome"(t) o;
