import { builder } from '../../graphql/builder.ts';
import { pagedCost } from '../../graphql/cost.ts';
import { page, parseInput } from '../../validation.ts';
import { pageType } from '../../graphql/pagination.ts';
import { DetectionResult, RemediationStatus, TestState, ValidationStatus } from '../../generated/prisma/enums.ts';
import '../techniques/types.ts';
import { TECHNIQUE_TEST_PAGE } from '../techniques/service.ts';
import { UserSummaryType } from '../users/types.ts';
import { testLifecycle, type Side } from './state-machine.ts';
import { elapsedMsOf } from './timer.ts';

export const TestStateEnum = builder.enumType(TestState, {
  name: 'TestState',
  description: 'Where a test is in the red/blue pipeline.',
});
export const DetectionResultEnum = builder.enumType(DetectionResult, { name: 'DetectionResult', description: 'What the blue team saw.' });
export const ValidationStatusEnum = builder.enumType(ValidationStatus, {
  name: 'ValidationStatus',
  description: "A lead's decision on one side.",
});
export const RemediationStatusEnum = builder.enumType(RemediationStatus, { name: 'RemediationStatus' });
export const ValidationSideEnum = builder.enumType({ red: 'red', blue: 'blue' } as const, {
  name: 'ValidationSide',
  description: 'A side of the dual validation: red (red lead) or blue (blue lead).',
});

export const TestType = builder.prismaObject('Test', {
  description: 'A purple-team test of one technique.',
  fields: (t) => ({
    id: t.exposeID('id'),
    techniqueId: t.exposeID('techniqueId'),
    technique: t.relation('technique'),
    name: t.exposeString('name', { description: 'Also called the title.' }),
    description: t.exposeString('description', { description: 'Also called the objective.' }),
    platform: t.exposeString('platform', { nullable: true }),
    procedureText: t.exposeString('procedureText', { nullable: true, description: 'Red side: what was executed.' }),
    toolUsed: t.exposeString('toolUsed', { nullable: true, description: 'Red side.' }),
    attackSuccess: t.exposeBoolean('attackSuccess', { nullable: true, description: 'Red side: whether the attack achieved its goal.' }),
    redSummary: t.exposeString('redSummary', { nullable: true }),
    detectionResult: t.expose('detectionResult', { type: DetectionResultEnum, nullable: true, description: 'Blue side.' }),
    blueSummary: t.exposeString('blueSummary', { nullable: true }),
    state: t.expose('state', { type: TestStateEnum }),
    validTransitions: t.field({
      type: [TestStateEnum],
      description: 'States the test can move to from its current state.',
      resolve: (test) => testLifecycle.validTransitions(test.state),
    }),
    availableActions: t.stringList({
      description: 'Transition actions the table offers in the current state (roles still apply), e.g. submit_red.',
      resolve: (test) => testLifecycle.actionsFrom(test.state),
    }),
    myActions: t.stringList({
      description:
        "Transition actions the caller's role may take in the current state (e.g. submit_red); per-record rules are checked when acting. Empty for viewers.",
      resolve: (test, _args, context) => testLifecycle.actionsFor(test.state, context.auth.principal?.role),
    }),
    executionDate: t.expose('executionDate', { type: 'DateTime', nullable: true, description: 'Set by start-execution.' }),
    redSubmittedAt: t.expose('redSubmittedAt', { type: 'DateTime', nullable: true }),
    blueSubmittedAt: t.expose('blueSubmittedAt', { type: 'DateTime', nullable: true }),
    redValidationStatus: t.expose('redValidationStatus', { type: ValidationStatusEnum, nullable: true }),
    redValidationNotes: t.exposeString('redValidationNotes', { nullable: true }),
    redValidatedById: t.exposeID('redValidatedById', { nullable: true }),
    redValidatedAt: t.expose('redValidatedAt', { type: 'DateTime', nullable: true }),
    blueValidationStatus: t.expose('blueValidationStatus', { type: ValidationStatusEnum, nullable: true }),
    blueValidationNotes: t.exposeString('blueValidationNotes', { nullable: true }),
    blueValidatedById: t.exposeID('blueValidatedById', { nullable: true }),
    blueValidatedAt: t.expose('blueValidatedAt', { type: 'DateTime', nullable: true }),
    pendingValidationSides: t.field({
      type: [ValidationSideEnum],
      description: 'In review: the sides whose lead has not decided yet; empty in every other state.',
      resolve: (test) => (test.state === 'in_review' ? pendingSides(test) : []),
    }),
    decidedAt: t.expose('decidedAt', { type: 'DateTime', nullable: true, description: 'When the test reached validated or rejected.' }),
    remediationSteps: t.exposeString('remediationSteps', { nullable: true }),
    remediationStatus: t.expose('remediationStatus', { type: RemediationStatusEnum, nullable: true }),
    remediationAssigneeId: t.exposeID('remediationAssigneeId', { nullable: true }),
    remediationAssignee: t.relation('remediationAssignee', { type: UserSummaryType, nullable: true }),
    remediationCompletedAt: t.expose('remediationCompletedAt', { type: 'DateTime', nullable: true }),
    dataClassification: t.exposeString('dataClassification', {
      nullable: true,
      description: 'E.g. confidential or restricted; set by admins.',
    }),
    createdById: t.exposeID('createdById'),
    createdBy: t.relation('createdBy', { type: UserSummaryType }),
    assignedToId: t.exposeID('assignedToId', { nullable: true }),
    assignedTo: t.relation('assignedTo', { type: UserSummaryType, nullable: true }),
    campaignId: t.exposeID('campaignId', { nullable: true }),
    templateId: t.exposeID('templateId', { nullable: true, description: 'The template the test was created from.' }),
    retestOfId: t.exposeID('retestOfId', { nullable: true, description: 'The test this one re-runs.' }),
    lineageId: t.exposeID('lineageId', { description: 'The first test of the retest chain (its own id for a first test).' }),
    elapsedSeconds: t.int({
      description: 'Working time on the clock, including the running part.',
      resolve: (test) => Math.floor(elapsedMsOf(test) / 1000),
    }),
    timerRunning: t.boolean({ resolve: (test) => test.timerStartedAt != null }),
    timerStartedAt: t.expose('timerStartedAt', { type: 'DateTime', nullable: true, description: 'When the running timer last started.' }),
    version: t.exposeInt('version', { description: 'Raised on every change.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export function pendingSides(test: {
  redValidationStatus: ValidationStatus | null;
  blueValidationStatus: ValidationStatus | null;
}): Side[] {
  return [...(test.redValidationStatus ? [] : ['red' as const]), ...(test.blueValidationStatus ? [] : ['blue' as const])];
}

export const TestPage = pageType('TestPage', TestType, { keyset: true });

export const TestEventType = builder.prismaObject('TestEvent', {
  description: 'One entry of a test timeline: creation, a state change, an edit, a validation or a timer action.',
  fields: (t) => ({
    id: t.exposeID('id'),
    testId: t.exposeID('testId'),
    kind: t.exposeString('kind', {
      description:
        'created, state_changed, validation_recorded, updated, red_updated, blue_updated, remediation_updated, classification_changed, timer_paused, timer_resumed, retest_created.',
    }),
    fromState: t.expose('fromState', { type: TestStateEnum, nullable: true }),
    toState: t.expose('toState', { type: TestStateEnum, nullable: true }),
    actorId: t.exposeID('actorId', { nullable: true }),
    actorName: t.exposeString('actorName'),
    at: t.expose('at', { type: 'DateTime' }),
    details: t.expose('details', { type: 'JSON' }),
  }),
});

const techniqueTestPage = page(TECHNIQUE_TEST_PAGE.defaultLimit, TECHNIQUE_TEST_PAGE.maxLimit);

builder.prismaObjectField('Technique', 'tests', (t) =>
  t.relation('tests', {
    description: 'The tests of the technique, oldest first, a page at a time.',
    args: {
      offset: t.arg.int({ required: false, defaultValue: 0 }),
      limit: t.arg.int({
        required: false,
        defaultValue: TECHNIQUE_TEST_PAGE.defaultLimit,
        description: `At most ${TECHNIQUE_TEST_PAGE.maxLimit}.`,
      }),
    },
    query: (args) => {
      const { offset, limit } = parseInput(techniqueTestPage, {
        offset: args.offset ?? 0,
        limit: args.limit ?? TECHNIQUE_TEST_PAGE.defaultLimit,
      });
      return { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], skip: offset, take: limit };
    },
    complexity: pagedCost(TECHNIQUE_TEST_PAGE),
  }),
);

export const TestFilterInput = builder.inputType('TestFilter', {
  fields: (t) => ({
    state: t.field({ type: TestStateEnum, required: false }),
    techniqueId: t.string({ required: false, description: 'The technique: its uuid or its ATT&CK id (T1003.001).' }),
    campaignId: t.field({ type: 'UUID', required: false }),
    withoutCampaign: t.boolean({ required: false, description: 'Only tests that belong to no campaign (e.g. to add one to a campaign).' }),
    assignedTo: t.field({ type: 'UUID', required: false, description: 'Assigned user (UUID).' }),
    platform: t.string({ required: false }),
    createdBy: t.field({ type: 'UUID', required: false, description: 'Creator (UUID).' }),
    pendingValidationSide: t.field({
      type: ValidationSideEnum,
      required: false,
      description: "Only in_review tests still waiting for this side's lead.",
    }),
  }),
});

export const CreateTestInput = builder.inputType('CreateTestInput', {
  fields: (t) => ({
    techniqueId: t.string({ required: true, description: 'The technique: its uuid or its ATT&CK id (T1003.001).' }),
    name: t.string({ required: false, description: 'Required (or title).' }),
    title: t.string({ required: false, description: 'Same as name.' }),
    description: t.string({ required: false }),
    objective: t.string({ required: false, description: 'Same as description.' }),
    platform: t.string({ required: false }),
    procedureText: t.string({ required: false }),
    toolUsed: t.string({ required: false }),
    assignedTo: t.field({ type: 'UUID', required: false }),
    campaignId: t.field({ type: 'UUID', required: false }),
  }),
});

export const CreateTestFromTemplateInput = builder.inputType('CreateTestFromTemplateInput', {
  fields: (t) => ({
    templateId: t.field({ type: 'UUID', required: true }),
    techniqueId: t.string({
      required: false,
      description: 'The technique: its uuid or its ATT&CK id (T1003.001); defaults to the one the template names (ttp_technique_id).',
    }),
    name: t.string({ required: false, description: "Defaults to the template's name." }),
    assignedTo: t.field({ type: 'UUID', required: false }),
    campaignId: t.field({ type: 'UUID', required: false }),
  }),
});

export const UpdateTestInput = builder.inputType('UpdateTestInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    title: t.string({ required: false, description: 'Same as name.' }),
    description: t.string({ required: false }),
    objective: t.string({ required: false, description: 'Same as description.' }),
    platform: t.string({ required: false }),
    assignedTo: t.field({ type: 'UUID', required: false, description: 'User (UUID); null unassigns.' }),
    techniqueId: t.string({ required: false, description: 'The technique: its uuid or its ATT&CK id (T1003.001).' }),
  }),
});

export const UpdateTestRedInput = builder.inputType('UpdateTestRedInput', {
  fields: (t) => ({
    procedureText: t.string({ required: false }),
    toolUsed: t.string({ required: false }),
    attackSuccess: t.boolean({ required: false }),
    redSummary: t.string({ required: false }),
  }),
});

export const UpdateTestBlueInput = builder.inputType('UpdateTestBlueInput', {
  fields: (t) => ({
    detectionResult: t.field({ type: DetectionResultEnum, required: false }),
    blueSummary: t.string({ required: false }),
  }),
});

export const UpdateTestRemediationInput = builder.inputType('UpdateTestRemediationInput', {
  fields: (t) => ({
    remediationSteps: t.string({ required: false, description: 'Multi-line text.' }),
    remediationStatus: t.field({ type: RemediationStatusEnum, required: false }),
    remediationAssignee: t.field({ type: 'UUID', required: false, description: 'User (UUID); null clears.' }),
  }),
});

export const TestClassificationInput = builder.inputType('TestClassificationInput', {
  fields: (t) => ({
    dataClassification: t.string({ required: false, description: 'E.g. confidential or restricted; null clears it.' }),
  }),
});

export const ValidateTestRedInput = builder.inputType('ValidateTestRedInput', {
  fields: (t) => ({
    redValidationStatus: t.field({ type: ValidationStatusEnum, required: true }),
    redValidationNotes: t.string({ required: false }),
  }),
});

export const ValidateTestBlueInput = builder.inputType('ValidateTestBlueInput', {
  fields: (t) => ({
    blueValidationStatus: t.field({ type: ValidationStatusEnum, required: true }),
    blueValidationNotes: t.string({ required: false }),
  }),
});

export const LegacyValidateTestInput = builder.inputType('LegacyValidateTestInput', {
  fields: (t) => ({
    result: t.field({ type: DetectionResultEnum, required: false, description: 'Recorded as detection_result when given.' }),
    comments: t.string({ required: false, description: "Recorded as the deciding side's validation notes." }),
  }),
});

export const RejectTestInput = builder.inputType('RejectTestInput', {
  fields: (t) => ({
    comments: t.string({ required: false, description: "Recorded as the rejecting side's validation notes." }),
  }),
});
