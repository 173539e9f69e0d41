-- CreateEnum
CREATE TYPE "smtp_security" AS ENUM ('none', 'starttls', 'tls');

-- CreateTable
CREATE TABLE "email_config" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "enabled" BOOLEAN,
    "smtp_host" TEXT,
    "smtp_port" INTEGER,
    "smtp_security" "smtp_security",
    "smtp_username" TEXT,
    "smtp_password_encrypted" TEXT,
    "from_address" TEXT,
    "updated_by" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "email_config_pkey" PRIMARY KEY ("id")
);
