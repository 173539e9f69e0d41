-- CreateTable
CREATE TABLE "catalog_versions" (
    "name" TEXT NOT NULL,
    "version" UUID NOT NULL,
    "xact" BIGINT NOT NULL,

    CONSTRAINT "catalog_versions_pkey" PRIMARY KEY ("name")
);

-- The ATT&CK catalog (techniques and tactics) gets a new version when a transaction that wrote it commits: the
-- trigger is deferred to the commit, so the new version is seen together with the rows (never before them), and its
-- one row is locked only while the transaction commits, after the other locks it takes. A version is a random UUID:
-- one never comes back, whatever the order of the commits. The service, imports and statements typed by hand all
-- pass through here; the triggers fire under session_replication_role = replica too (ENABLE ALWAYS). What does not:
-- a restore with triggers disabled and a table rewrite by DDL, after which the version is to be replaced by hand
-- (docs/catalog.md). Commits that wrote the catalog take this row one after the other, so a repeatable-read or
-- serializable writer of the catalog can fail at commit with a serialisation error when another wrote it meanwhile.
CREATE FUNCTION "bump_attack_catalog_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "catalog_versions" ("name", "version", "xact") VALUES ('attack', gen_random_uuid(), txid_current())
  ON CONFLICT ("name") DO UPDATE SET "version" = EXCLUDED."version", "xact" = EXCLUDED."xact"
    WHERE "catalog_versions"."xact" <> EXCLUDED."xact";
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER "techniques_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "techniques"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_attack_catalog_version"();
CREATE CONSTRAINT TRIGGER "tactics_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE ON "tactics"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_attack_catalog_version"();
-- TRUNCATE has no row triggers, and statement triggers cannot be deferred: the version row is taken at once.
CREATE TRIGGER "techniques_truncate_bump_catalog_version" AFTER TRUNCATE ON "techniques"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_attack_catalog_version"();
CREATE TRIGGER "tactics_truncate_bump_catalog_version" AFTER TRUNCATE ON "tactics"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_attack_catalog_version"();

ALTER TABLE "techniques" ENABLE ALWAYS TRIGGER "techniques_bump_catalog_version";
ALTER TABLE "techniques" ENABLE ALWAYS TRIGGER "techniques_truncate_bump_catalog_version";
ALTER TABLE "tactics" ENABLE ALWAYS TRIGGER "tactics_bump_catalog_version";
ALTER TABLE "tactics" ENABLE ALWAYS TRIGGER "tactics_truncate_bump_catalog_version";

INSERT INTO "catalog_versions" ("name", "version", "xact") VALUES ('attack', gen_random_uuid(), txid_current());
