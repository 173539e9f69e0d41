import type { Principal } from '../../auth/access.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import type { AttackPathExecution } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { insertTestFromTemplate } from '../test-runs/service.ts';
import { lockTechniqueFigures } from '../test-runs/store.ts';
import { lockExecution } from './executions.ts';
import { executionLifecycle } from './state-machine.ts';

/** Why a step got no test. */
export type SkipReason = 'no_template' | 'template_inactive' | 'already_created';

export interface StepTest {
  stepId: string;
  position: number;
  ttpId: string;
  testId: string;
}

export interface SkippedStep {
  stepId: string;
  position: number;
  ttpId: string;
  reason: SkipReason;
  /** The test created earlier, for already_created. */
  testId: string | null;
}

export interface ExecutionTests {
  execution: AttackPathExecution;
  created: StepTest[];
  skipped: SkippedStep[];
}

export const TEST_CREATING_STATES = executionLifecycle.statesWhere((rule) => rule.createsTests);

/**
 * Creates one draft test per step from the step's template, as POST /tests/from-template does (the same
 * service function), against the step's technique; the step keeps the test's id. Steps without a template,
 * with an inactive one, or with a test already are skipped and reported. All or nothing, in one transaction.
 */
export function createExecutionTests(services: Services, principal: Principal, id: string): Promise<ExecutionTests> {
  return inTransaction(
    services,
    principal,
    async (uow) => {
      const execution = await lockExecution(uow, id);
      executionLifecycle.assertIn('EDIT_NOT_ALLOWED', 'Creating tests', execution.status, TEST_CREATING_STATES);
      const steps = await uow.tx.attackPathExecutionStep.findMany({
        where: { executionId: id },
        orderBy: { position: 'asc' },
        include: { template: { select: { isActive: true } } },
      });
      const created: StepTest[] = [];
      const skipped: SkippedStep[] = [];
      await lockTechniqueFigures(
        uow,
        steps.filter((step) => !step.testId && step.template?.isActive).map((step) => step.techniqueId),
      );
      for (const step of steps) {
        const base = { stepId: step.id, position: step.position, ttpId: step.ttpId };
        const reason: SkipReason | null = step.testId
          ? 'already_created'
          : !step.template
            ? 'no_template'
            : !step.template.isActive
              ? 'template_inactive'
              : null;
        if (reason) {
          skipped.push({ ...base, reason, testId: step.testId });
          continue;
        }
        const test = await insertTestFromTemplate(
          uow,
          principal,
          { templateId: step.templateId!, techniqueId: step.techniqueId },
          { select: { id: true } },
          { attack_path_execution_id: id, attack_path_step: step.position },
        );
        await uow.tx.attackPathExecutionStep.update({ where: { id: step.id }, data: { testId: test.id } });
        created.push({ ...base, testId: test.id });
      }
      if (created.length) {
        await uow.tx.attackPathExecution.update({ where: { id }, data: { version: { increment: 1 } } });
        await uow.audit({
          action: 'create_attack_path_execution_tests',
          entityType: 'attack_path_execution',
          entityId: id,
          details: {
            created: created.map((step) => ({ position: step.position, test_id: step.testId })),
            skipped: skipped.map((step) => ({ position: step.position, reason: step.reason })),
          },
        });
        uow.emit('attack_path_execution.changed', { executionId: id, attackPathId: execution.pathId, change: 'tests_created' });
      }
      return { execution: await uow.tx.attackPathExecution.findUniqueOrThrow({ where: { id } }), created, skipped };
    },
    { timeout: 60_000 },
  );
}
