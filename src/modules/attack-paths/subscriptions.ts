import { allow } from '../../graphql/access.ts';
import { builder, type SchemaTypes } from '../../graphql/builder.ts';
import { payloadMatches } from '../../events/bus.ts';
import type { EventOf } from '../../events/types.ts';
import type { AttackPathExecutionStatus } from '../../generated/prisma/enums.ts';
import { attackPathRoles } from './permissions.ts';
import { AttackPathExecutionStatusEnum } from './types.ts';

type StateChange = EventOf<'attack_path_execution.state_changed'>;
type ExecutionEdit = EventOf<'attack_path_execution.changed'>;

/** What every change of an execution tells: its ids, who made it and when, and the execution as it is now. */
function executionChangeFields<E extends StateChange | ExecutionEdit>(t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, E>) {
  return {
    executionId: t.id({ resolve: (change) => change.payload.executionId }),
    attackPathId: t.id({ nullable: true, resolve: (change) => change.payload.attackPathId }),
    actorId: t.id({ nullable: true, resolve: (change) => change.actorId }),
    occurredAt: t.field({ type: 'DateTime', resolve: (change) => change.occurredAt }),
    execution: t.prismaField({
      type: 'AttackPathExecution',
      description: 'The execution as it is now.',
      resolve: (query, change, _args, context) =>
        context.services.prisma.attackPathExecution.findUniqueOrThrow({ ...query, where: { id: change.payload.executionId } }),
    }),
  };
}

const ExecutionStateChangeType = builder.objectRef<StateChange>('AttackPathExecutionStateChange').implement({
  description: 'An attack path execution moved from one status to another.',
  fields: (t) => ({
    ...executionChangeFields(t),
    fromStatus: t.field({ type: AttackPathExecutionStatusEnum, resolve: (change) => change.payload.from as AttackPathExecutionStatus }),
    toStatus: t.field({ type: AttackPathExecutionStatusEnum, resolve: (change) => change.payload.to as AttackPathExecutionStatus }),
  }),
});

const ExecutionChangeType = builder.objectRef<ExecutionEdit>('AttackPathExecutionChange').implement({
  description: "An attack path execution changed without changing status: a step's outcome recorded, tests created from it.",
  fields: (t) => ({
    ...executionChangeFields(t),
    change: t.string({ description: 'What changed: created, step_recorded, tests_created.', resolve: (change) => change.payload.change }),
  }),
});

builder.subscriptionFields((t) => ({
  attackPathExecutionStateChanged: t.field({
    type: ExecutionStateChangeType,
    description: "Streams status changes of one execution, of one path's executions, or of every execution, from any API process.",
    authScopes: allow(attackPathRoles.read),
    args: { executionId: t.arg({ type: 'UUID', required: false }), attackPathId: t.arg({ type: 'UUID', required: false }) },
    subscribe: (_root, { executionId, attackPathId }, context) =>
      context.services.bus.stream('attack_path_execution.state_changed', payloadMatches({ executionId, attackPathId })),
    resolve: (change) => change,
  }),
  attackPathExecutionChanged: t.field({
    type: ExecutionChangeType,
    description:
      "Streams the changes of one execution, of one path's executions, or of every execution that are not status changes (attackPathExecutionStateChanged's), from any API process.",
    authScopes: allow(attackPathRoles.read),
    args: { executionId: t.arg({ type: 'UUID', required: false }), attackPathId: t.arg({ type: 'UUID', required: false }) },
    subscribe: (_root, { executionId, attackPathId }, context) =>
      context.services.bus.stream('attack_path_execution.changed', payloadMatches({ executionId, attackPathId })),
    resolve: (change) => change,
  }),
}));
