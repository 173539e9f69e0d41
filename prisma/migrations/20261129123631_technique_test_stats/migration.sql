-- CreateTable
CREATE TABLE "technique_test_stats" (
    "technique_id" UUID NOT NULL,
    "tests_total" INTEGER NOT NULL DEFAULT 0,
    "tests_validated" INTEGER NOT NULL DEFAULT 0,
    "tests_rejected" INTEGER NOT NULL DEFAULT 0,
    "validated_detected" INTEGER NOT NULL DEFAULT 0,
    "validated_partial" INTEGER NOT NULL DEFAULT 0,
    "last_validated_at" TIMESTAMPTZ(3),
    "last_result" "DetectionResult",
    "last_result_at" TIMESTAMPTZ(3),

    CONSTRAINT "technique_test_stats_pkey" PRIMARY KEY ("technique_id")
);

-- AddForeignKey
ALTER TABLE "technique_test_stats" ADD CONSTRAINT "technique_test_stats_technique_id_fkey" FOREIGN KEY ("technique_id") REFERENCES "techniques"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Creates the rows of the given techniques (those that exist) and locks them in id order, until the commit. A
-- transaction that writes tests of several techniques in several statements calls it first (the application's
-- lockTechniqueFigures), so that two of them cannot lock the same rows in opposite orders.
CREATE FUNCTION "lock_technique_test_stats"(ids UUID[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "technique_test_stats" ("technique_id")
    SELECT t.id FROM "techniques" t WHERE t.id = ANY (ids) ORDER BY t.id
    ON CONFLICT ("technique_id") DO NOTHING;
  PERFORM 1 FROM "technique_test_stats" st WHERE st.technique_id = ANY (ids) ORDER BY st.technique_id FOR UPDATE;
END
$$;

-- Recomputes the figures of the given techniques from their tests, their rows locked first: a writer of the same
-- technique's tests waits there until the other commits, and its count, a later statement, then sees that commit
-- (counting first would let the later writer store a count without it).
CREATE FUNCTION "refresh_technique_test_stats"(ids UUID[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM "lock_technique_test_stats"(ids);
  UPDATE "technique_test_stats" st
     SET ("tests_total", "tests_validated", "tests_rejected", "validated_detected", "validated_partial", "last_validated_at") = (
           SELECT count(*)::int,
                  (count(*) FILTER (WHERE s.state = 'validated'))::int,
                  (count(*) FILTER (WHERE s.state = 'rejected'))::int,
                  (count(*) FILTER (WHERE s.state = 'validated' AND s.detection_result = 'detected'))::int,
                  (count(*) FILTER (WHERE s.state = 'validated' AND s.detection_result = 'partially_detected'))::int,
                  max(s.decided_at) FILTER (WHERE s.state = 'validated')
             FROM "tests" s WHERE s.technique_id = st.technique_id),
         ("last_result", "last_result_at") = (
           SELECT s.detection_result, s.decided_at FROM "tests" s
            WHERE s.technique_id = st.technique_id AND s.state = 'validated'
              AND s.decided_at IS NOT NULL AND s.detection_result IS NOT NULL
            ORDER BY s.decided_at DESC, s.created_at DESC, s.id DESC LIMIT 1)
   WHERE st.technique_id = ANY (ids);
END
$$;

-- The tests a statement inserted or deleted (the transition table of either trigger below).
CREATE FUNCTION "tests_changed_refresh_technique_stats"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "refresh_technique_test_stats"(ARRAY(SELECT DISTINCT c.technique_id FROM "changed_tests" c));
  RETURN NULL;
END
$$;

-- Only the tests whose technique, state, detection result, decision or creation time changed: a renamed test or a
-- running timer changes no figure.
CREATE FUNCTION "tests_updated_refresh_technique_stats"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "refresh_technique_test_stats"(ARRAY(
    SELECT DISTINCT x.technique_id
      FROM "old_tests" o JOIN "new_tests" n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.technique_id), (n.technique_id)) AS x(technique_id)
     WHERE (o.technique_id, o.state, o.detection_result, o.decided_at, o.created_at)
           IS DISTINCT FROM (n.technique_id, n.state, n.detection_result, n.decided_at, n.created_at)));
  RETURN NULL;
END
$$;

-- Emptying the tests empties the figures.
CREATE FUNCTION "tests_truncated_clear_technique_stats"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "technique_test_stats";
  RETURN NULL;
END
$$;

CREATE TRIGGER "tests_refresh_technique_stats_on_insert" AFTER INSERT ON "tests"
  REFERENCING NEW TABLE AS "changed_tests" FOR EACH STATEMENT EXECUTE FUNCTION "tests_changed_refresh_technique_stats"();
CREATE TRIGGER "tests_refresh_technique_stats_on_update" AFTER UPDATE ON "tests"
  REFERENCING OLD TABLE AS "old_tests" NEW TABLE AS "new_tests" FOR EACH STATEMENT EXECUTE FUNCTION "tests_updated_refresh_technique_stats"();
CREATE TRIGGER "tests_refresh_technique_stats_on_delete" AFTER DELETE ON "tests"
  REFERENCING OLD TABLE AS "changed_tests" FOR EACH STATEMENT EXECUTE FUNCTION "tests_changed_refresh_technique_stats"();

CREATE TRIGGER "tests_clear_technique_stats_on_truncate" AFTER TRUNCATE ON "tests"
  FOR EACH STATEMENT EXECUTE FUNCTION "tests_truncated_clear_technique_stats"();

-- The tests that exist already.
SELECT "refresh_technique_test_stats"(ARRAY(SELECT DISTINCT s.technique_id FROM "tests" s));
