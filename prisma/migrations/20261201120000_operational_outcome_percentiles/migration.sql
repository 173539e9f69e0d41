-- The operational KPIs and the figures by team (GET /metrics/operational, /metrics/operational/by-team) give the
-- median and 90th percentile of three durations over every test. Read from these indexes, each percentile is the two
-- values around its rank instead of a sort of all 80,000 values.
CREATE INDEX "test_outcomes_detect_seconds_idx" ON "test_outcomes" (detect_seconds) WHERE detect_seconds IS NOT NULL;
CREATE INDEX "test_outcomes_execution_seconds_idx" ON "test_outcomes" (execution_seconds) WHERE execution_seconds IS NOT NULL;
CREATE INDEX "test_outcomes_evaluation_seconds_idx" ON "test_outcomes" (evaluation_seconds) WHERE evaluation_seconds IS NOT NULL;

-- With these indexes (and those by week), rewriting a test's outcome costs an entry in each: a test's outcome is now
-- rewritten only when it changes, so that renaming a test, editing its notes or starting its timer writes nothing
-- here (nor clears its page's all-visible mark, without which the index-only scans read the table until a vacuum).
CREATE OR REPLACE FUNCTION "refresh_test_outcomes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "test_outcomes" o
   USING "changed_tests" c LEFT JOIN LATERAL "test_outcome"(c) n ON true
   WHERE o.test_id = c.id AND (n.test_id IS NULL OR o IS DISTINCT FROM n);
  INSERT INTO "test_outcomes"
  SELECT n.* FROM "changed_tests" c CROSS JOIN LATERAL "test_outcome"(c) n
   WHERE NOT EXISTS (SELECT 1 FROM "test_outcomes" o WHERE o.test_id = n.test_id);
  RETURN NULL;
END
$$;
