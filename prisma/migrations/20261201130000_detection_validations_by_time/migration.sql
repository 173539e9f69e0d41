-- CreateIndex
CREATE INDEX "detection_validations_validated_at_idx" ON "detection_validations"("validated_at");
