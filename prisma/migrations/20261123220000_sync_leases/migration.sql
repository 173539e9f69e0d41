-- AlterTable
ALTER TABLE "data_sources" ADD COLUMN     "lease_expires_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "data_source_runs" ADD COLUMN     "committed" JSONB NOT NULL DEFAULT '{}';
