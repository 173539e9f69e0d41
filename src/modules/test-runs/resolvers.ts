import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder, type SchemaTypes } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { principalOf } from '../../graphql/context.ts';
import { payloadMatches } from '../../events/bus.ts';
import type { EventOf } from '../../events/types.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import './my-edits.ts';
import { testRoles } from './permissions.ts';
import { createRetest, RETEST_CHAIN_MAX, retestChain } from './retests.ts';
import * as tests from './service.ts';
import { TRANSITIONS, type TransitionInput } from './state-machine.ts';
import { pauseTimer, resumeTimer } from './timer.ts';
import {
  CreateTestFromTemplateInput,
  CreateTestInput,
  LegacyValidateTestInput,
  RejectTestInput,
  TestClassificationInput,
  TestFilterInput,
  TestPage,
  TestStateEnum,
  UpdateTestBlueInput,
  UpdateTestInput,
  UpdateTestRedInput,
  UpdateTestRemediationInput,
  ValidateTestBlueInput,
  ValidateTestRedInput,
} from './types.ts';
import { applyTransition } from './workflow.ts';
import { pageArgs, pagedList } from '../../graphql/pagination.ts';
import { selectedFields } from '../../graphql/selection.ts';

builder.queryFields((t) => ({
  tests: t.field({
    type: TestPage,
    ...pagedList(tests.TEST_PAGE, (paging) => `Tests matching the filter, newest first (${paging}; or keyset paging with after).`),
    authScopes: allow(testRoles.read),
    args: {
      filter: t.arg({ type: TestFilterInput, required: false }),
      ...pageArgs(t.arg),
      after: t.arg.string({ required: false, description: 'Keyset paging: the nextCursor of the page before (offset then 0).' }),
    },
    resolve: (_root, { filter, offset, limit, after }, context, info) => {
      const selected = selectedFields(info);
      return tests.listTests(
        context.services,
        filter ?? {},
        { offset: offset ?? undefined, limit: limit ?? undefined, after },
        queryFromInfo({ context, info, path: ['items'] }),
        selected.has('total') || selected.has('totalExact'),
      );
    },
  }),
  test: t.prismaField({
    type: 'Test',
    authScopes: allow(testRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => tests.getTest(context.services, String(id), query),
  }),
  testTimeline: t.prismaField({
    type: ['TestEvent'],
    description: `Creation, state changes, edits, validations and timer actions of the test, oldest first (at most ${tests.TIMELINE_MAX}).`,
    complexity: cappedListCost(tests.TIMELINE_MAX),
    authScopes: allow(testRoles.read),
    args: { testId: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { testId }, context) => tests.testTimeline(context.services, String(testId), query),
  }),
  retestChain: t.prismaField({
    type: ['Test'],
    description: `Every test of the retest lineage the test belongs to (the latest ${RETEST_CHAIN_MAX}), in creation order.`,
    complexity: cappedListCost(RETEST_CHAIN_MAX),
    authScopes: allow(testRoles.read),
    args: { testId: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { testId }, context) => retestChain(context.services, String(testId), query),
  }),
}));

builder.mutationFields((t) => ({
  createTest: t.prismaField({
    type: 'Test',
    description: 'Creates a test in draft.',
    authScopes: allow(testRoles.create),
    args: { input: t.arg({ type: CreateTestInput, required: true }) },
    resolve: (query, _root, { input }, context) => tests.createTest(context.services, principalOf(context), input, query),
  }),
  createTestFromTemplate: t.prismaField({
    type: 'Test',
    description: 'Creates a draft pre-filled from a template: name, description, platform, procedure, tool and remediation steps.',
    authScopes: allow(testRoles.create),
    args: { input: t.arg({ type: CreateTestFromTemplateInput, required: true }) },
    resolve: (query, _root, { input }, context) => tests.createTestFromTemplate(context.services, principalOf(context), input, query),
  }),
  updateTest: t.prismaField({
    type: 'Test',
    description: 'Changes the general fields; only in draft or rejected.',
    authScopes: allow(testRoles.update),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateTestInput, required: true }) },
    resolve: (query, _root, { id, input }, context) => tests.updateTest(context.services, principalOf(context), String(id), input, query),
  }),
  updateTestRed: t.prismaField({
    type: 'Test',
    description: 'Changes the red-side fields; only in draft or red_executing.',
    authScopes: allow(testRoles.updateRed),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateTestRedInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      tests.updateTestRed(context.services, principalOf(context), String(id), input, query),
  }),
  updateTestBlue: t.prismaField({
    type: 'Test',
    description: 'Changes the blue-side fields; only in blue_evaluating.',
    authScopes: allow(testRoles.updateBlue),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateTestBlueInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      tests.updateTestBlue(context.services, principalOf(context), String(id), input, query),
  }),
  updateTestRemediation: t.prismaField({
    type: 'Test',
    description: 'Changes the remediation fields; once the test has reached review (in_review, validated, rejected).',
    authScopes: allow(testRoles.updateRemediation),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateTestRemediationInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      tests.updateTestRemediation(context.services, principalOf(context), String(id), input, query),
  }),
  setTestClassification: t.prismaField({
    type: 'Test',
    description: 'Sets the data classification (admins only, any state).',
    authScopes: allow(testRoles.classify),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: TestClassificationInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      tests.setTestClassification(context.services, principalOf(context), String(id), input, query),
  }),
  pauseTestTimer: t.prismaField({
    type: 'Test',
    description: 'Pauses the elapsed-time counter; pausing a stopped timer changes nothing.',
    authScopes: allow(testRoles.timer),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => pauseTimer(context.services, principalOf(context), String(id), query),
  }),
  resumeTestTimer: t.prismaField({
    type: 'Test',
    description: 'Resumes the elapsed-time counter (red_executing or blue_evaluating); resuming a running timer changes nothing.',
    authScopes: allow(testRoles.timer),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => resumeTimer(context.services, principalOf(context), String(id), query),
  }),
  createRetest: t.prismaField({
    type: 'Test',
    description: 'Re-runs a validated or rejected test: a new draft with the same definition in the same retest lineage.',
    authScopes: allow(testRoles.retest),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => createRetest(context.services, principalOf(context), String(id), query),
  }),
}));

const TRANSITION_INPUTS = {
  redValidation: { type: ValidateTestRedInput, required: true },
  blueValidation: { type: ValidateTestBlueInput, required: true },
  legacyValidation: { type: LegacyValidateTestInput, required: false },
  legacyRejection: { type: RejectTestInput, required: false },
} as const satisfies Record<TransitionInput, unknown>;

// One mutation per row of the transition table.
for (const row of TRANSITIONS) {
  builder.mutationField(row.mutation, (t) =>
    t.prismaField({
      type: 'Test',
      description: row.summary,
      authScopes: allow(row.roles),
      args: {
        id: t.arg({ type: 'UUID', required: true }),
        ...(row.input
          ? {
              input: t.arg({
                type: TRANSITION_INPUTS[row.input].type as typeof RejectTestInput,
                required: TRANSITION_INPUTS[row.input].required,
              }),
            }
          : {}),
      },
      resolve: (query, _root, args, context) =>
        applyTransition(context.services, principalOf(context), String(args.id), row.action, (args as { input?: unknown }).input, query),
    }),
  );
}

type StateChange = EventOf<'test.state_changed'>;
type TestEdit = EventOf<'test.changed'>;

/** What every change of a test tells: its ids, who made it and when, and the test as it is now. */
function testChangeFields<E extends StateChange | TestEdit>(t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, E>) {
  return {
    testId: t.id({ resolve: (change) => change.payload.testId }),
    campaignId: t.id({ nullable: true, resolve: (change) => change.payload.campaignId }),
    actorId: t.id({ nullable: true, resolve: (change) => change.actorId }),
    occurredAt: t.field({ type: 'DateTime', resolve: (change) => change.occurredAt }),
    test: t.prismaField({
      type: 'Test',
      description: 'The test as it is now.',
      resolve: (query, change, _args, context) =>
        context.services.prisma.test.findUniqueOrThrow({ ...query, where: { id: change.payload.testId } }),
    }),
  };
}

const TestStateChangeType = builder.objectRef<StateChange>('TestStateChange').implement({
  description: 'A test moved from one state to another.',
  fields: (t) => ({
    ...testChangeFields(t),
    techniqueId: t.id({ resolve: (change) => change.payload.techniqueId }),
    fromState: t.field({ type: TestStateEnum, resolve: (change) => change.payload.from as TestState }),
    toState: t.field({ type: TestStateEnum, resolve: (change) => change.payload.to as TestState }),
  }),
});

const TestChangeType = builder.objectRef<TestEdit>('TestChange').implement({
  description: "A test changed without changing state: an edit of its fields, its timer, a rule evaluation, its campaign's.",
  fields: (t) => ({
    ...testChangeFields(t),
    change: t.string({
      description:
        "What changed: an edit, by its timeline kind (updated, red_updated, blue_updated, remediation_updated, classification_changed); timer_paused, timer_resumed; a lead's decision on one side that kept the state (its action); detection_evaluated; campaign_added, campaign_removed; created.",
      resolve: (change) => change.payload.change,
    }),
  }),
});

builder.subscriptionFields((t) => ({
  testStateChanged: t.field({
    type: TestStateChangeType,
    description: "Streams state changes of one test, of one campaign's tests, or of every test, from any API process.",
    authScopes: allow(testRoles.read),
    args: { testId: t.arg({ type: 'UUID', required: false }), campaignId: t.arg({ type: 'UUID', required: false }) },
    subscribe: (_root, { testId, campaignId }, context) =>
      context.services.bus.stream('test.state_changed', payloadMatches({ testId, campaignId })),
    resolve: (change) => change,
  }),
  testChanged: t.field({
    type: TestChangeType,
    description:
      "Streams the changes of one test, of one campaign's tests, or of every test that are not state changes (testStateChanged's), from any API process.",
    authScopes: allow(testRoles.read),
    args: { testId: t.arg({ type: 'UUID', required: false }), campaignId: t.arg({ type: 'UUID', required: false }) },
    subscribe: (_root, { testId, campaignId }, context) =>
      context.services.bus.stream('test.changed', payloadMatches({ testId, campaignId })),
    resolve: (change) => change,
  }),
}));
