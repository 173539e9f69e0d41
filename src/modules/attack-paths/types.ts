import { builder, type SchemaTypes } from '../../graphql/builder.ts';
import { cappedListCost, pagedCost } from '../../graphql/cost.ts';
import { pageType, slicedPageArgs } from '../../graphql/pagination.ts';
import { page, parseInput } from '../../validation.ts';
import { AttackPathExecutionStatus, AttackStepExpectation, AttackStepOutcome } from '../../generated/prisma/enums.ts';
import '../techniques/types.ts';
import '../test-runs/types.ts';
import '../test-templates/types.ts';
import { UserSummaryType } from '../users/types.ts';
import type { ExecutionTests, SkippedStep, StepTest } from './create-tests.ts';
import { attackPathRoles } from './permissions.ts';
import { EXECUTION_STATES, executionLifecycle } from './state-machine.ts';
import { MAX_STEPS } from './store.ts';
import { summaryLoader, type ExecutionSummary, type OutcomeCounts } from './summary.ts';

export const AttackStepExpectationEnum = builder.enumType(AttackStepExpectation, {
  name: 'AttackStepExpectation',
  description: 'What the defence is expected to do at a step: detect it, block it, or (a known gap) not detect it.',
});
export const AttackStepOutcomeEnum = builder.enumType(AttackStepOutcome, {
  name: 'AttackStepOutcome',
  description: 'What happened at a step: the attack succeeded unnoticed, was blocked, detected, not detected, or the step was skipped.',
});
export const AttackPathExecutionStatusEnum = builder.enumType(AttackPathExecutionStatus, {
  name: 'AttackPathExecutionStatus',
  description: 'Where an execution is: pending → running → completed, or aborted.',
});

export const AttackPathStepType = builder.prismaObject('AttackPathStep', {
  description: 'One step of an attack path: a technique, optionally a test template, and the outcome expected.',
  fields: (t) => ({
    id: t.exposeID('id'),
    position: t.exposeInt('position', { description: 'Place in the path: 1..n without gaps.' }),
    techniqueId: t.exposeID('techniqueId'),
    technique: t.relation('technique'),
    testTemplateId: t.exposeID('templateId', { nullable: true, description: 'Template the step is tested with, if any.' }),
    testTemplate: t.relation('template', { nullable: true }),
    expectedOutcome: t.expose('expectedOutcome', { type: AttackStepExpectationEnum }),
    notes: t.exposeString('notes', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** The steps of a path or of an execution, as they are read: in order, at most MAX_STEPS. */
const ORDERED_STEPS = {
  description: `The steps in order (at most ${MAX_STEPS}).`,
  query: { orderBy: { position: 'asc' } },
  complexity: cappedListCost(MAX_STEPS),
} as const;

/** The executions a path read nests: fewer than the execution list's page, since each holds its steps. */
const PATH_EXECUTIONS = { defaultLimit: 10, maxLimit: 50 } as const;
const executionPage = page(PATH_EXECUTIONS.defaultLimit, PATH_EXECUTIONS.maxLimit);

export const AttackPathType = builder.prismaObject('AttackPath', {
  description: 'An ordered sequence of techniques an adversary would chain, with the outcome expected of the defence at each.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    createdById: t.exposeID('createdById'),
    createdBy: t.relation('createdBy', { type: UserSummaryType }),
    version: t.exposeInt('version', { description: 'Raised on every change of the path or its steps.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    steps: t.relation('steps', ORDERED_STEPS),
    stepCount: t.relationCount('steps', { description: 'Number of steps.' }),
    executionCount: t.relationCount('executions', { description: 'Number of executions of the path.' }),
    executions: t.relation('executions', {
      description: 'Executions of the path, newest first, a page at a time: executionCount gives the total.',
      args: slicedPageArgs(t.arg, PATH_EXECUTIONS),
      query: (args) => {
        const { offset, limit } = parseInput(executionPage, {
          offset: args.offset ?? 0,
          limit: args.limit ?? PATH_EXECUTIONS.defaultLimit,
        });
        return { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offset, take: limit };
      },
      complexity: pagedCost(PATH_EXECUTIONS),
    }),
  }),
});

export const AttackPathPage = pageType('AttackPathPage', AttackPathType);

export const AttackPathExecutionStepType = builder.prismaObject('AttackPathExecutionStep', {
  description: 'A step of an execution: the path step as it was when the execution was created, and what happened at it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    position: t.exposeInt('position'),
    sourceStepId: t.exposeID('sourceStepId', {
      nullable: true,
      description: 'The path step it was copied from; null once that step is removed from the path.',
    }),
    techniqueId: t.exposeID('techniqueId'),
    ttpId: t.exposeString('ttpId', { description: "The technique's ttp id when the execution was created." }),
    techniqueName: t.exposeString('techniqueName', { description: "The technique's name when the execution was created." }),
    technique: t.relation('technique', { description: 'The technique as it is now.' }),
    testTemplateId: t.exposeID('templateId', { nullable: true }),
    expectedOutcome: t.expose('expectedOutcome', { type: AttackStepExpectationEnum }),
    notes: t.exposeString('notes', { nullable: true, description: "The path step's notes." }),
    outcome: t.expose('outcome', { type: AttackStepOutcomeEnum, nullable: true, description: 'Null until recorded.' }),
    outcomeNotes: t.exposeString('outcomeNotes', { nullable: true, description: 'Notes recorded with the outcome.' }),
    occurredAt: t.expose('occurredAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the step happened (never before the start).',
    }),
    recordedById: t.exposeID('recordedById', { nullable: true }),
    recordedBy: t.relation('recordedBy', { type: UserSummaryType, nullable: true }),
    recordedAt: t.expose('recordedAt', { type: 'DateTime', nullable: true }),
    testId: t.exposeID('testId', { nullable: true, description: 'The test created for this step from its template.' }),
    test: t.relation('test', { nullable: true }),
  }),
});

const OutcomeCountsType = builder.objectRef<OutcomeCounts>('AttackStepOutcomeCounts').implement({
  description: 'Number of steps per recorded outcome, and of steps never recorded.',
  fields: (t) => ({
    succeeded: t.exposeInt('succeeded'),
    blocked: t.exposeInt('blocked'),
    detected: t.exposeInt('detected'),
    notDetected: t.exposeInt('not_detected'),
    skipped: t.exposeInt('skipped'),
    unrecorded: t.exposeInt('unrecorded'),
  }),
});

export const ExecutionSummaryType = builder.objectRef<ExecutionSummary>('AttackPathExecutionSummary').implement({
  description: 'What a completed execution found.',
  fields: (t) => ({
    totalSteps: t.exposeInt('totalSteps'),
    counts: t.field({ type: OutcomeCountsType, resolve: (summary) => summary.counts }),
    firstDetectedStep: t.field({
      type: AttackPathExecutionStepType,
      nullable: true,
      description: 'The detected step that occurred first (equal times: the earlier position); null without a detection.',
      resolve: (summary) => summary.firstDetectedStep,
    }),
    firstBlockedStep: t.field({
      type: AttackPathExecutionStepType,
      nullable: true,
      description: 'The blocked step that occurred first (equal times: the earlier position).',
      resolve: (summary) => summary.firstBlockedStep,
    }),
    timeToDetectSeconds: t.float({
      nullable: true,
      description: "Seconds from the start to the first detected step's occurred_at; null without a detection.",
      resolve: (summary) => summary.timeToDetectSeconds,
    }),
    unnoticedSteps: t.field({
      type: [AttackPathExecutionStepType],
      description: 'Steps that went through unnoticed (outcome succeeded or not_detected), in step order.',
      complexity: cappedListCost(MAX_STEPS),
      resolve: (summary) => summary.unnoticedSteps,
    }),
  }),
});

export const AttackPathExecutionType = builder.prismaObject('AttackPathExecution', {
  description: 'One run of an attack path over a copy of its steps taken when the run was created.',
  fields: (t) => ({
    id: t.exposeID('id'),
    attackPathId: t.exposeID('pathId', { nullable: true, description: 'Null once the path has been deleted.' }),
    attackPathName: t.exposeString('pathName', { description: "The path's name when the execution was created." }),
    status: t.expose('status', { type: AttackPathExecutionStatusEnum }),
    validTransitions: t.field({
      type: [AttackPathExecutionStatusEnum],
      description: 'Statuses the execution can move to from its current one.',
      resolve: (execution) => executionLifecycle.validTransitions(execution.status),
    }),
    availableActions: t.stringList({
      description: 'Transition actions the table offers in the current status (roles still apply): start, complete, abort.',
      resolve: (execution) => executionLifecycle.actionsFrom(execution.status),
    }),
    myActions: t.stringList({
      description: "Transition actions the caller's role may take in the current status (start, complete, abort). Empty for viewers.",
      select: { status: true },
      resolve: (execution, _args, context) => executionLifecycle.actionsFor(execution.status, context.auth.principal?.role),
    }),
    canRecordOutcomes: t.boolean({
      description: "Whether the caller's role may record step outcomes in the current status (a running execution).",
      select: { status: true },
      resolve: (execution, _args, context) => {
        const role = context.auth.principal?.role;
        return (
          EXECUTION_STATES[execution.status].recordsOutcomes &&
          role !== undefined &&
          (attackPathRoles.recordOutcome as readonly string[]).includes(role)
        );
      },
    }),
    notes: t.exposeString('notes', { nullable: true }),
    createdById: t.exposeID('createdById'),
    createdBy: t.relation('createdBy', { type: UserSummaryType }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    abortedAt: t.expose('abortedAt', { type: 'DateTime', nullable: true }),
    abortReason: t.exposeString('abortReason', { nullable: true }),
    version: t.exposeInt('version', { description: 'Raised on every change.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    steps: t.relation('steps', ORDERED_STEPS),
    summary: t.field({
      type: ExecutionSummaryType,
      nullable: true,
      description: 'First detection, first block, time to detect, unnoticed steps and counts per outcome; null until completed.',
      select: { id: true, status: true },
      resolve: (execution, _args, context) =>
        EXECUTION_STATES[execution.status].reportsSummary ? summaryLoader(context).load(execution.id) : null,
    }),
  }),
});

export const AttackPathExecutionPage = pageType('AttackPathExecutionPage', AttackPathExecutionType);

const StepTestType = builder.objectRef<StepTest>('AttackPathStepTest').implement({
  description: 'A test created for an execution step from its template.',
  fields: (t) => ({
    stepId: t.exposeID('stepId'),
    position: t.exposeInt('position'),
    ttpId: t.exposeString('ttpId'),
    testId: t.exposeID('testId'),
  }),
});

const SkipReasonEnum = builder.enumType(
  { no_template: 'no_template', template_inactive: 'template_inactive', already_created: 'already_created' } as const,
  { name: 'AttackPathStepSkipReason', description: 'Why a step got no test.' },
);

const SkippedStepType = builder.objectRef<SkippedStep>('AttackPathSkippedStep').implement({
  description: 'An execution step that got no test, and why.',
  fields: (t) => ({
    stepId: t.exposeID('stepId'),
    position: t.exposeInt('position'),
    ttpId: t.exposeString('ttpId'),
    reason: t.expose('reason', { type: SkipReasonEnum }),
    testId: t.exposeID('testId', { nullable: true, description: 'The test created earlier (already_created).' }),
  }),
});

export const ExecutionTestsType = builder.objectRef<ExecutionTests>('AttackPathExecutionTests').implement({
  description: 'The tests created for an execution from its steps’ templates, and the steps skipped.',
  fields: (t) => ({
    execution: t.field({ type: AttackPathExecutionType, resolve: (result) => result.execution }),
    created: t.field({ type: [StepTestType], complexity: cappedListCost(MAX_STEPS), resolve: (result) => result.created }),
    skipped: t.field({ type: [SkippedStepType], complexity: cappedListCost(MAX_STEPS), resolve: (result) => result.skipped }),
  }),
});

const stepInputFields = (t: PothosSchemaTypes.InputFieldBuilder<SchemaTypes, 'InputObject'>) => ({
  technique: t.string({ required: true, description: 'The technique: its uuid or its ttp id (T1059.001).' }),
  testTemplateId: t.field({ type: 'UUID', required: false, description: 'An active test template to test the step with.' }),
  expectedOutcome: t.field({ type: AttackStepExpectationEnum, required: false, description: 'Defaults to detected.' }),
  notes: t.string({ required: false, description: 'At most 5000 characters.' }),
});

export const AttackPathStepInput = builder.inputType('AttackPathStepInput', { fields: stepInputFields });

export const AddAttackPathStepInput = builder.inputType('AddAttackPathStepInput', {
  fields: (t) => ({
    ...stepInputFields(t),
    position: t.int({ required: false, description: 'Where to insert it (1..n+1); default: at the end.' }),
  }),
});

export const CreateAttackPathInput = builder.inputType('CreateAttackPathInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string({ required: false }),
    steps: t.field({
      type: [AttackPathStepInput],
      required: false,
      description: `The sequence of techniques, in order (at most ${MAX_STEPS}).`,
    }),
  }),
});

export const UpdateAttackPathInput = builder.inputType('UpdateAttackPathInput', {
  fields: (t) => ({
    name: t.string({ required: false }),
    description: t.string({ required: false }),
  }),
});

export const ReorderAttackPathStepsInput = builder.inputType('ReorderAttackPathStepsInput', {
  fields: (t) => ({
    stepIds: t.field({ type: ['UUID'], required: true, description: 'Every step id of the path, once each, in the new order.' }),
  }),
});

export const CreateAttackPathExecutionInput = builder.inputType('CreateAttackPathExecutionInput', {
  fields: (t) => ({ notes: t.string({ required: false, description: 'What this run is, e.g. the exercise it belongs to.' }) }),
});

export const StartAttackPathExecutionInput = builder.inputType('StartAttackPathExecutionInput', {
  fields: (t) => ({
    startedAt: t.field({
      type: 'DateTime',
      required: false,
      description: 'When the run began, for runs recorded afterwards; default now; never in the future.',
    }),
  }),
});

export const AbortAttackPathExecutionInput = builder.inputType('AbortAttackPathExecutionInput', {
  fields: (t) => ({ reason: t.string({ required: false, description: 'Why the run stopped.' }) }),
});

export const RecordStepOutcomeInput = builder.inputType('RecordAttackStepOutcomeInput', {
  fields: (t) => ({
    outcome: t.field({ type: AttackStepOutcomeEnum, required: true }),
    notes: t.string({ required: false }),
    occurredAt: t.field({
      type: 'DateTime',
      required: false,
      description: 'When the step happened; default now; not before the start, not in the future.',
    }),
  }),
});
