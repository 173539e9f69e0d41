import { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { inTransaction, type Actor } from '../../db/unit-of-work.ts';
import { DomainError, NotFoundError } from '../../errors.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../../validation.ts';

type Query = { select?: Prisma.DetectionEvaluationSelect; include?: Prisma.DetectionEvaluationInclude };

/** A test can be evaluated against rules once the red team has handed it over, and after its review. */
import { EVALUABLE_STATES } from '../test-runs/states.ts';

export { EVALUABLE_STATES };

export class TestNotEvaluableError extends DomainError {
  override readonly status = 400;
  override readonly code = 'TEST_NOT_EVALUABLE';
  constructor(state: TestState) {
    super(`Detection rules can be evaluated on a test in ${EVALUABLE_STATES.join(', ')}; this test is in ${state}`);
    this.extra.current_state = state;
    this.extra.allowed_states = [...EVALUABLE_STATES];
  }
}

const evaluateSchema = z.object({
  testId: z.guid('must be a UUID'),
  ruleId: z.guid('must be a UUID'),
  triggered: z.boolean('must be true or false'),
  notes: z
    .string()
    .trim()
    .max(10_000, 'must be at most 10000 characters')
    .nullish()
    .transform((notes) => notes || null),
});

/**
 * Records whether a rule triggered during a test: the evaluation (with the rule's title, source, external id
 * and author copied, as DRL 1.1 asks of anything derived from a rule), a timeline entry and an audit entry.
 */
export async function evaluateDetectionRule(services: Services, actor: Actor, input: unknown, query: Query = {}) {
  const { testId, ruleId, triggered, notes } = parseInput(evaluateSchema, input);
  return inTransaction(services, actor, async (uow) => {
    const test = await uow.tx.test.findUnique({ where: { id: testId }, select: { id: true, state: true, campaignId: true } });
    if (!test) throw new NotFoundError('Test', testId);
    const rule = await uow.tx.detectionRule.findUnique({
      where: { id: ruleId },
      select: { id: true, title: true, source: true, externalId: true, author: true },
    });
    if (!rule) throw new NotFoundError('Detection rule', ruleId);
    if (!EVALUABLE_STATES.includes(test.state)) throw new TestNotEvaluableError(test.state);

    const evaluation = await uow.tx.detectionEvaluation.create({
      data: {
        testId,
        ruleId,
        triggered,
        notes,
        ruleTitle: rule.title,
        ruleSource: rule.source,
        ruleExternalId: rule.externalId,
        ruleAuthor: rule.author,
        evaluatedById: actor.userId,
      },
    });
    const facts = {
      rule_id: rule.id,
      rule_title: rule.title,
      rule_source: rule.source,
      rule_external_id: rule.externalId,
      rule_author: rule.author,
      triggered,
    };
    await uow.tx.testEvent.create({
      data: { testId, kind: 'detection_evaluated', actorId: actor.userId, actorName: actor.username, details: { ...facts, notes } },
    });
    await uow.audit({
      action: 'evaluate_detection_rule',
      entityType: 'test',
      entityId: testId,
      details: { ...facts, evaluation_id: evaluation.id },
    });
    uow.emit('test.changed', { testId, campaignId: test.campaignId, change: 'detection_evaluated' });
    return query.select || query.include
      ? uow.tx.detectionEvaluation.findUniqueOrThrow({ ...query, where: { id: evaluation.id } })
      : evaluation;
  });
}
