-- The operational trends (GET /metrics/operational/trend) group standing results by the UTC week of their blue
-- submission, and repairs by the week their remediation was completed, with each week's median and 90th percentile.
-- Read in that order from these indexes alone (they hold every column the trend reads), a year of 80,000 results is
-- neither sorted on disk by week nor read from the table, nor is the whole table scanned for its 6,000 repairs; each
-- week's values come sorted for its percentiles.
CREATE INDEX "test_outcomes_results_by_week_idx"
  ON "test_outcomes" ((date_trunc('week', blue_submitted_at AT TIME ZONE 'UTC')), detect_seconds)
  INCLUDE (blue_submitted_at, detection_result, is_result) WHERE is_result;
CREATE INDEX "test_outcomes_repairs_by_week_idx"
  ON "test_outcomes" ((date_trunc('week', remediation_completed_at AT TIME ZONE 'UTC')), repair_hours)
  INCLUDE (remediation_completed_at) WHERE repair_hours IS NOT NULL;
