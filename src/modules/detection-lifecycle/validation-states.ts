import { Roles } from '../../auth/roles.ts';
import type { Prisma } from '../../db/client.ts';
import { Prisma as Sql } from '../../generated/prisma/client.ts';
import { defineLifecycle, type TransitionRow } from '../../lifecycle/kit.ts';

export type ValidationStatus = 'fresh' | 'expired' | 'invalidated';
export type ValidationAction = 'expire' | 'invalidate' | 'record_infrastructure_change';

/**
 * The moments that end a validation's freshness. A deadline (valid_until) is compared with the moment asked about;
 * an event (invalidated_at, null until it happens) has happened once recorded, or, asked about a past moment, if
 * recorded by then (the application's clock writes it, so comparing it with the database's now() would not do).
 */
type End = 'validUntil' | 'invalidatedAt';
const END_COLUMNS: Record<End, { column: string; event: boolean }> = {
  validUntil: { column: 'valid_until', event: false },
  invalidatedAt: { column: 'invalidated_at', event: true },
};

/** A status: which ends have come by the moment asked about, and which have not. */
export interface ValidationStateRule {
  reached: readonly End[];
  notReached: readonly End[];
  /** No transition leaves it. */
  terminal: boolean;
}

/**
 * The one definition of a validation's status (never stored): invalidated once invalidated_at has come, else
 * expired once valid_until has come, else fresh. Its SQL, its Prisma filter and its test of a row derive from it.
 */
export const VALIDATION_STATES: Readonly<Record<ValidationStatus, ValidationStateRule>> = {
  fresh: { reached: [], notReached: ['validUntil', 'invalidatedAt'], terminal: false },
  expired: { reached: ['validUntil'], notReached: ['invalidatedAt'], terminal: false },
  invalidated: { reached: ['invalidatedAt'], notReached: [], terminal: true },
};

export interface ValidationTransition extends TransitionRow<ValidationStatus, ValidationAction> {
  /** What causes it when no endpoint of its own backs it. */
  by?: string;
}

/** The validation transition table; an invalidation of an invalidated validation answers 409 (docs). */
export const VALIDATION_TRANSITIONS: readonly ValidationTransition[] = [
  {
    action: 'expire',
    from: ['fresh'],
    to: 'expired',
    roles: [],
    audit: '',
    by: 'time: valid_until passes',
    summary: 'fresh → expired once valid_until has passed',
  },
  {
    action: 'invalidate',
    path: 'invalidate',
    mutation: 'invalidateDetectionValidation',
    from: ['fresh', 'expired'],
    to: 'invalidated',
    roles: Roles.blueLead,
    audit: 'invalidate_detection_validation',
    stamps: ['invalidatedAt', 'invalidatedReason'],
    summary: 'Invalidate a validation (body reason); 409 when already invalidated',
  },
  {
    action: 'record_infrastructure_change',
    mutation: 'recordInfrastructureChange',
    from: ['fresh', 'expired'],
    to: 'invalidated',
    roles: Roles.blueLead,
    audit: 'record_infrastructure_change',
    stamps: ['invalidatedAt', 'invalidatedReason', 'invalidatedById'],
    by: '`POST /infrastructure-changes` touching it',
    summary: 'A change touching the validation, recorded after it was made, invalidates it',
  },
];

export const validationLifecycle = defineLifecycle({
  noun: 'detection validation',
  inState: (status: ValidationStatus) => `the validation is ${status}`,
  states: VALIDATION_STATES,
  transitions: VALIDATION_TRANSITIONS,
});

export const VALIDATION_STATUSES = validationLifecycle.stateNames;

/**
 * The SQL condition of `status` on the validation row `alias` (default: unqualified columns), for `$queryRaw`:
 * now, or as of the past moment `asOf` (an SQL expression). E.g. `WHERE ${validationIs('fresh', 'l')}`.
 */
export function validationIs(status: ValidationStatus, alias?: string, asOf?: Sql.Sql): Sql.Sql {
  if (alias !== undefined && !/^[a-z_]+$/.test(alias)) throw new Error(`not a table alias: ${alias}`);
  const column = (end: End) => Sql.raw(alias ? `${alias}.${END_COLUMNS[end].column}` : END_COLUMNS[end].column);
  const at = asOf ?? Sql.sql`now()`;
  const reached = (end: End) =>
    END_COLUMNS[end].event
      ? asOf
        ? Sql.sql`${column(end)} <= ${at}`
        : Sql.sql`${column(end)} IS NOT NULL`
      : Sql.sql`${column(end)} <= ${at}`;
  const notReached = (end: End) =>
    END_COLUMNS[end].event
      ? asOf
        ? Sql.sql`(${column(end)} IS NULL OR ${column(end)} > ${at})`
        : Sql.sql`${column(end)} IS NULL`
      : Sql.sql`${column(end)} > ${at}`;
  const rule = VALIDATION_STATES[status];
  return Sql.sql`(${Sql.join([...rule.reached.map(reached), ...rule.notReached.map(notReached)], ' AND ')})`;
}

/** The Prisma filter of `status` at `now`, or as of that past moment (`asOf`). */
export function validationWhere(status: ValidationStatus, now: Date, asOf = false): Prisma.DetectionValidationWhereInput {
  const reached = (end: End) => (END_COLUMNS[end].event && !asOf ? { [end]: { not: null } } : { [end]: { lte: now } });
  const notReached = (end: End) =>
    END_COLUMNS[end].event ? (asOf ? { OR: [{ [end]: null }, { [end]: { gt: now } }] } : { [end]: null }) : { [end]: { gt: now } };
  const rule = VALIDATION_STATES[status];
  return { AND: [...rule.reached.map(reached), ...rule.notReached.map(notReached)] };
}

/** The status of one validation at `now`, or as of that past moment (`asOf`). */
export function validationStatusOf(validation: Record<End, Date | null>, now: Date, asOf = false): ValidationStatus {
  const reached = (end: End) => validation[end] !== null && (!asOf && END_COLUMNS[end].event ? true : validation[end] <= now);
  return VALIDATION_STATUSES.find((status) => {
    const rule = VALIDATION_STATES[status];
    return rule.reached.every(reached) && !rule.notReached.some(reached);
  })!;
}
