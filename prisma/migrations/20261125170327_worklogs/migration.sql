-- CreateTable
CREATE TABLE "worklogs" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "minutes" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "description" TEXT NOT NULL,
    "test_id" UUID,
    "campaign_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "worklogs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "worklogs_user_id_date_created_at_id_idx" ON "worklogs"("user_id", "date" DESC, "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "worklogs_date_created_at_id_idx" ON "worklogs"("date" DESC, "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "worklogs_test_id_idx" ON "worklogs"("test_id");

-- CreateIndex
CREATE INDEX "worklogs_campaign_id_idx" ON "worklogs"("campaign_id");

-- AddForeignKey
ALTER TABLE "worklogs" ADD CONSTRAINT "worklogs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "worklogs" ADD CONSTRAINT "worklogs_test_id_fkey" FOREIGN KEY ("test_id") REFERENCES "tests"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "worklogs" ADD CONSTRAINT "worklogs_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE SET NULL ON UPDATE CASCADE;
