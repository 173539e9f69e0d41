import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import type { EventOf } from '../../events/types.ts';
import type { AttackPathExecutionStatus } from '../../generated/prisma/enums.ts';
import { attackPathRoles } from './permissions.ts';
import { AttackPathExecutionStatusEnum } from './types.ts';

type StateChange = EventOf<'attack_path_execution.state_changed'>;

const ExecutionStateChangeType = builder.objectRef<StateChange>('AttackPathExecutionStateChange').implement({
  description: 'An attack path execution moved from one status to another.',
  fields: (t) => ({
    executionId: t.id({ resolve: (change) => change.payload.executionId }),
    attackPathId: t.id({ nullable: true, resolve: (change) => change.payload.attackPathId }),
    fromStatus: t.field({ type: AttackPathExecutionStatusEnum, resolve: (change) => change.payload.from as AttackPathExecutionStatus }),
    toStatus: t.field({ type: AttackPathExecutionStatusEnum, resolve: (change) => change.payload.to as AttackPathExecutionStatus }),
    actorId: t.id({ nullable: true, resolve: (change) => change.actorId }),
    occurredAt: t.field({ type: 'DateTime', resolve: (change) => change.occurredAt }),
    execution: t.prismaField({
      type: 'AttackPathExecution',
      description: 'The execution as it is now.',
      resolve: (query, change, _args, context) =>
        context.services.prisma.attackPathExecution.findUniqueOrThrow({ ...query, where: { id: change.payload.executionId } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  attackPathExecutionStateChanged: t.field({
    type: ExecutionStateChangeType,
    description: "Streams status changes of one execution, of one path's executions, or of every execution, from any API process.",
    authScopes: allow(attackPathRoles.read),
    args: { executionId: t.arg({ type: 'UUID', required: false }), attackPathId: t.arg({ type: 'UUID', required: false }) },
    subscribe: (_root, { executionId, attackPathId }, context) =>
      context.services.bus.stream(
        'attack_path_execution.state_changed',
        ({ payload }) =>
          (!executionId || payload.executionId === String(executionId)) && (!attackPathId || payload.attackPathId === String(attackPathId)),
      ),
    resolve: (change) => change,
  }),
}));
