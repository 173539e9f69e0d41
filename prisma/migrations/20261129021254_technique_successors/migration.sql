-- AlterTable
ALTER TABLE "techniques" ADD COLUMN     "revoked_by_ttp_id" TEXT;
