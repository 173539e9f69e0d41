-- Risk profiles and revalidation entries are rewritten whole by every computation (POST /risk/compute, the queue's
-- generation), most rows with the same indexed values. Half of each page is left free so that a row's new version
-- goes on the page of the old one (a HOT update): the old version is reclaimed when the page is next read, without
-- waiting for VACUUM, and the indexes get no new entries. At 100 % full every computation appended a copy of the
-- table, and reads scanned them all until a vacuum came round (or never, where autovacuum is off).
ALTER TABLE "risk_profiles" SET (fillfactor = 50);
ALTER TABLE "revalidation_entries" SET (fillfactor = 50);

-- The setting applies to pages written from now on: both tables (a row per technique at most, per reason for the
-- queue) are rewritten once, compactly and at the new fill, leaving behind the copies earlier computations appended.
CLUSTER "risk_profiles" USING "risk_profiles_pkey";
CLUSTER "revalidation_entries" USING "revalidation_entries_pkey";
