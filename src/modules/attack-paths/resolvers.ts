import { queryFromInfo } from '@pothos/plugin-prisma';
import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import { createExecutionTests } from './create-tests.ts';
import * as executions from './executions.ts';
import { attackPathLayer, executionLayer } from './navigator.ts';
import { attackPathRoles } from './permissions.ts';
import * as paths from './service.ts';
import { EXECUTION_TRANSITIONS, type ExecutionAction } from './state-machine.ts';
import {
  AbortAttackPathExecutionInput,
  AddAttackPathStepInput,
  AttackPathExecutionPage,
  AttackPathPage,
  CreateAttackPathExecutionInput,
  CreateAttackPathInput,
  ExecutionTestsType,
  RecordStepOutcomeInput,
  ReorderAttackPathStepsInput,
  StartAttackPathExecutionInput,
  UpdateAttackPathInput,
} from './types.ts';
import './subscriptions.ts';
import { pageArgs, pagedList, pagingOf } from '../../graphql/pagination.ts';

builder.queryFields((t) => ({
  attackPaths: t.field({
    type: AttackPathPage,
    ...pagedList(paths.ATTACK_PATH_PAGE, (paging) => `Attack paths, newest first (search: name or description; ${paging}).`),
    authScopes: allow(attackPathRoles.read),
    args: { search: t.arg.string({ required: false }), ...pageArgs(t.arg) },
    resolve: (_root, { search, offset, limit }, context, info) =>
      paths.listAttackPaths(context.services, { search }, pagingOf({ offset, limit }), queryFromInfo({ context, info, path: ['items'] })),
  }),
  attackPath: t.prismaField({
    type: 'AttackPath',
    description: 'One attack path with its steps in order.',
    authScopes: allow(attackPathRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => paths.getAttackPath(context.services, String(id), query),
  }),
  attackPathExecutions: t.field({
    type: AttackPathExecutionPage,
    ...pagedList(executions.EXECUTION_PAGE, 'The executions of an attack path, newest first'),
    authScopes: allow(attackPathRoles.read),
    args: {
      attackPathId: t.arg({ type: 'UUID', required: true }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { attackPathId, offset, limit }, context, info) =>
      executions.listExecutions(
        context.services,
        String(attackPathId),
        pagingOf({ offset, limit }),
        queryFromInfo({ context, info, path: ['items'] }),
      ),
  }),
  attackPathExecution: t.prismaField({
    type: 'AttackPathExecution',
    description: 'One execution with its steps and, once completed, its summary.',
    authScopes: allow(attackPathRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => executions.getExecution(context.services, String(id), query),
  }),
  attackPathNavigatorLayer: t.field({
    type: 'JSON',
    description: 'An ATT&CK Navigator layer (format 4.5) of the path: techniques coloured by expected outcome, step order in the comments.',
    authScopes: allow(attackPathRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => attackPathLayer(context.services, String(id)),
  }),
  attackPathExecutionNavigatorLayer: t.field({
    type: 'JSON',
    description:
      'An ATT&CK Navigator layer (format 4.5) of the execution: techniques coloured by recorded outcome, step order in the comments.',
    authScopes: allow(attackPathRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => executionLayer(context.services, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  createAttackPath: t.prismaField({
    type: 'AttackPath',
    description: 'Creates an attack path from a sequence of techniques.',
    authScopes: allow(attackPathRoles.write),
    args: { input: t.arg({ type: CreateAttackPathInput, required: true }) },
    resolve: (query, _root, { input }, context) => paths.createAttackPath(context.services, principalOf(context), input, query),
  }),
  updateAttackPath: t.prismaField({
    type: 'AttackPath',
    description: 'Changes the name or description.',
    authScopes: allow(attackPathRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateAttackPathInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      paths.updateAttackPath(context.services, principalOf(context), String(id), input, query),
  }),
  deleteAttackPath: t.field({
    type: 'ID',
    description: 'Deletes the path and its steps; its executions stay. Returns the id.',
    authScopes: allow(attackPathRoles.delete),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => paths.deleteAttackPath(context.services, principalOf(context), String(id)),
  }),
  addAttackPathStep: t.prismaField({
    type: 'AttackPath',
    description: 'Adds a technique step (at the end, or at position); returns the path.',
    authScopes: allow(attackPathRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: AddAttackPathStepInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      paths.addAttackPathStep(context.services, principalOf(context), String(id), input, query),
  }),
  removeAttackPathStep: t.prismaField({
    type: 'AttackPath',
    description: 'Removes a step; the later steps move up. Returns the path.',
    authScopes: allow(attackPathRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), stepId: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id, stepId }, context) =>
      paths.removeAttackPathStep(context.services, principalOf(context), String(id), String(stepId), query),
  }),
  reorderAttackPathSteps: t.prismaField({
    type: 'AttackPath',
    description: 'Puts the steps in the given order (every step id once). Returns the path.',
    authScopes: allow(attackPathRoles.write),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: ReorderAttackPathStepsInput, required: true }) },
    resolve: (query, _root, { id, input }, context) =>
      paths.reorderAttackPathSteps(context.services, principalOf(context), String(id), input, query),
  }),
  createAttackPathExecution: t.prismaField({
    type: 'AttackPathExecution',
    description: "Creates a pending execution over a copy of the path's steps.",
    authScopes: allow(attackPathRoles.execute),
    args: {
      attackPathId: t.arg({ type: 'UUID', required: true }),
      input: t.arg({ type: CreateAttackPathExecutionInput, required: false }),
    },
    resolve: (query, _root, { attackPathId, input }, context) =>
      executions.createExecution(context.services, principalOf(context), String(attackPathId), input ?? {}, query),
  }),
  recordAttackPathStepOutcome: t.prismaField({
    type: 'AttackPathExecution',
    description: 'Records what happened at a step of a running execution (stepId: the execution step or its path step).',
    authScopes: allow(attackPathRoles.recordOutcome),
    args: {
      id: t.arg({ type: 'UUID', required: true }),
      stepId: t.arg({ type: 'UUID', required: true }),
      input: t.arg({ type: RecordStepOutcomeInput, required: true }),
    },
    resolve: (query, _root, { id, stepId, input }, context) =>
      executions.recordStepOutcome(context.services, principalOf(context), String(id), String(stepId), input, query),
  }),
  createAttackPathExecutionTests: t.field({
    type: ExecutionTestsType,
    description: "Creates a draft test per step from the step's template; steps without one are skipped and reported.",
    authScopes: allow(attackPathRoles.createTests),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_root, { id }, context) => createExecutionTests(context.services, principalOf(context), String(id)),
  }),
}));

/** The body each transition takes, if any. */
const TRANSITION_INPUTS: Partial<Record<ExecutionAction, typeof StartAttackPathExecutionInput | typeof AbortAttackPathExecutionInput>> = {
  start: StartAttackPathExecutionInput,
  abort: AbortAttackPathExecutionInput,
};

// One mutation per row of the execution transition table.
for (const row of EXECUTION_TRANSITIONS) {
  const inputType = TRANSITION_INPUTS[row.action];
  builder.mutationField(row.mutation, (t) =>
    t.prismaField({
      type: 'AttackPathExecution',
      description: row.summary,
      authScopes: allow(row.roles),
      args: {
        id: t.arg({ type: 'UUID', required: true }),
        ...(inputType ? { input: t.arg({ type: inputType, required: false }) } : {}),
      },
      resolve: (query, _root, args, context) =>
        executions.applyExecutionTransition(
          context.services,
          principalOf(context),
          String(args.id),
          row.action,
          (args as { input?: unknown }).input ?? {},
          query,
        ),
    }),
  );
}
