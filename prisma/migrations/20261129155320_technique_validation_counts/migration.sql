-- AlterTable
ALTER TABLE "technique_test_stats" ADD COLUMN     "blue_approved" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "blue_rejected" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "red_approved" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "red_rejected" INTEGER NOT NULL DEFAULT 0;

-- The figures now count the leads' decisions on each side too (approved, rejected): the validation rates read them
-- instead of every test.
CREATE OR REPLACE FUNCTION "refresh_technique_test_stats"(ids UUID[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM "lock_technique_test_stats"(ids);
  UPDATE "technique_test_stats" st
     SET ("tests_total", "tests_validated", "tests_rejected", "validated_detected", "validated_partial", "last_validated_at",
          "red_approved", "red_rejected", "blue_approved", "blue_rejected") = (
           SELECT count(*)::int,
                  (count(*) FILTER (WHERE s.state = 'validated'))::int,
                  (count(*) FILTER (WHERE s.state = 'rejected'))::int,
                  (count(*) FILTER (WHERE s.state = 'validated' AND s.detection_result = 'detected'))::int,
                  (count(*) FILTER (WHERE s.state = 'validated' AND s.detection_result = 'partially_detected'))::int,
                  max(s.decided_at) FILTER (WHERE s.state = 'validated'),
                  (count(*) FILTER (WHERE s.red_validation_status = 'approved'))::int,
                  (count(*) FILTER (WHERE s.red_validation_status = 'rejected'))::int,
                  (count(*) FILTER (WHERE s.blue_validation_status = 'approved'))::int,
                  (count(*) FILTER (WHERE s.blue_validation_status = 'rejected'))::int
             FROM "tests" s WHERE s.technique_id = st.technique_id),
         ("last_result", "last_result_at") = (
           SELECT s.detection_result, s.decided_at FROM "tests" s
            WHERE s.technique_id = st.technique_id AND s.state = 'validated'
              AND s.decided_at IS NOT NULL AND s.detection_result IS NOT NULL
            ORDER BY s.decided_at DESC, s.created_at DESC, s.id DESC LIMIT 1)
   WHERE st.technique_id = ANY (ids);
END
$$;

-- Only the tests whose technique, state, detection result, decision, creation time or a lead's decision changed: a
-- renamed test or a running timer changes no figure.
CREATE OR REPLACE FUNCTION "tests_updated_refresh_technique_stats"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "refresh_technique_test_stats"(ARRAY(
    SELECT DISTINCT x.technique_id
      FROM "old_tests" o JOIN "new_tests" n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.technique_id), (n.technique_id)) AS x(technique_id)
     WHERE (o.technique_id, o.state, o.detection_result, o.decided_at, o.created_at, o.red_validation_status, o.blue_validation_status)
           IS DISTINCT FROM (n.technique_id, n.state, n.detection_result, n.decided_at, n.created_at, n.red_validation_status, n.blue_validation_status)));
  RETURN NULL;
END
$$;

-- The tests that exist already.
SELECT "refresh_technique_test_stats"(ARRAY(SELECT DISTINCT s.technique_id FROM "tests" s));
