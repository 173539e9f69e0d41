import type { Prisma } from '../../db/client.ts';
import type { Services } from '../../services.ts';

type TacticQuery = { select?: Prisma.TacticSelect };

/** The ATT&CK tactics in matrix order. */
export const listTactics = (services: Services, query: TacticQuery = {}) =>
  services.prisma.tactic.findMany({ ...query, orderBy: [{ matrixOrder: 'asc' }, { externalId: 'asc' }] });
