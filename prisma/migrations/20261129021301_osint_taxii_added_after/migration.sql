-- AlterTable
ALTER TABLE "osint_feeds" ADD COLUMN     "added_after" TEXT;
