-- AlterEnum
ALTER TYPE "TrackerSubject" ADD VALUE 'revalidation';
