-- CreateIndex
CREATE INDEX "tests_decided_at_state_detection_result_idx" ON "tests"("decided_at", "state", "detection_result");
