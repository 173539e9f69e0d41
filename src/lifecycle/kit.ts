import { ROLE_ABBREVIATIONS, Roles, type Role } from '../auth/roles.ts';
import { DomainError, InvalidTransitionError } from '../errors.ts';

type OneOrMore<S extends string> = S | readonly S[];

/** What every row of a transition table says; a lifecycle's own rows add their effects. */
export interface TransitionRow<S extends string = string, A extends string = string> {
  action: A;
  from: OneOrMore<S>;
  /** Every state the action can lead to; the first is its nominal target. */
  to: OneOrMore<S>;
  /** The spec's "Who" column. */
  roles: readonly Role[];
  /** Audit action name. */
  audit: string;
  /** REST: POST <collection>/{id}/<path>; absent when no endpoint backs the transition (time, another command). */
  path?: string;
  /** GraphQL mutation name, when one backs the transition. */
  mutation?: string;
  /** Timestamp columns set to the moment of the transition. */
  stamps?: readonly string[];
  summary: string;
  /** Kept for compatibility: allowed, but not offered in `myActions`. */
  legacy?: boolean;
}

/** Codes of the "not allowed in this state" error (all answer 400 with `current_state` and `allowed_states`). */
export type NotAllowedCode = 'EDIT_NOT_ALLOWED' | 'TIMER_NOT_ALLOWED' | 'RETEST_NOT_ALLOWED';

/** An edit or action the current state does not allow (e.g. blue fields outside blue_evaluating). */
export class NotAllowedInStateError extends DomainError {
  override readonly status = 400;

  constructor(
    override readonly code: NotAllowedCode,
    message: string,
    currentState: string,
    allowedStates: readonly string[],
  ) {
    super(message);
    Object.assign(this.extra, { current_state: currentState, allowed_states: allowedStates });
  }
}

export interface LifecycleSpec<S extends string, R, T extends TransitionRow<S>> {
  /** What errors call one record: `test`, `campaign`, `attack path execution`. */
  noun: string;
  /** How a "not allowed" error says the state the record is in: `the test is in draft`. */
  inState: (state: S) => string;
  /** The one state table, in lifecycle order (the order of lists and errors), with every per-state rule. */
  states: Readonly<Record<S, R>>;
  /** The one transition table. */
  transitions: readonly T[];
}

/** The states of a state table, in its (lifecycle) order. */
export const statesOf = <S extends string>(table: Readonly<Record<S, unknown>>): readonly S[] => Object.keys(table) as S[];

/** The states, in lifecycle order, whose rule passes `test`. */
export const statesWhere = <S extends string, R>(table: Readonly<Record<S, R>>, test: (rule: R, state: S) => boolean): readonly S[] =>
  statesOf(table).filter((state) => test(table[state], state));

export const listOf = <S extends string>(value: OneOrMore<S>): readonly S[] => (typeof value === 'string' ? [value] : value);

/** A lifecycle: its two tables and everything derived from them once. */
export function defineLifecycle<S extends string, R, T extends TransitionRow<S>>(spec: LifecycleSpec<S, R, T>) {
  const stateNames = statesOf(spec.states);
  const fromOf = (row: T) => listOf(row.from);
  const targetsOf = (row: T) => listOf(row.to);
  const rowsFrom = (state: S, role?: Role) =>
    spec.transitions.filter((row) => fromOf(row).includes(state) && (role === undefined || row.roles.includes(role)));
  const transitionsOf = (state: S, role?: Role): readonly S[] => {
    const targets = rowsFrom(state, role).flatMap(targetsOf);
    return Object.freeze(stateNames.filter((candidate) => candidate !== state && targets.includes(candidate)));
  };
  // Read for every row of every list (`valid_transitions`): each (state, role) of the table is worked out once.
  const transitionsKept = new Map<string, readonly S[]>();
  const validTransitions = (state: S, role?: Role): readonly S[] => {
    const key = role === undefined ? state : `${state} ${role}`;
    const kept = transitionsKept.get(key);
    if (kept) return kept;
    const transitions = transitionsOf(state, role);
    if (stateNames.includes(state)) transitionsKept.set(key, transitions);
    return transitions;
  };
  const invalidTransition = (row: T, current: S, target: S = targetsOf(row)[0]) =>
    new InvalidTransitionError(spec.noun, row.path ?? row.action, current, target, validTransitions(current));
  const notAllowed = (code: NotAllowedCode, what: string, current: S, allowed: readonly S[]) =>
    new NotAllowedInStateError(code, `${what} is allowed only in ${allowed.join(' or ')}; ${spec.inState(current)}`, current, allowed);

  return {
    ...spec,
    stateNames,
    fromOf,
    targetsOf,
    /** The row of `action`. */
    transition: (action: T['action']): T => spec.transitions.find((row) => row.action === action)!,
    /** The states, in lifecycle order, whose rule passes `test`. */
    statesWhere: (test: (rule: R, state: S) => boolean): readonly S[] => statesWhere(spec.states, test),
    /** States the record can move to from `state` (by `role`, if given): the `valid_transitions` of errors and types. */
    validTransitions,
    /** Actions the table offers in `state` (roles still apply). */
    actionsFrom: (state: S): T['action'][] => rowsFrom(state).map((row) => row.action),
    /** Actions `role` may take in `state` (legacy rows left out); none without a role. */
    actionsFor: (state: S, role: Role | undefined): T['action'][] =>
      role === undefined
        ? []
        : rowsFrom(state, role)
            .filter((row) => !row.legacy)
            .map((row) => row.action),
    /** The INVALID_TRANSITION error of `row` tried from `current`. */
    invalidTransition,
    /** Throws INVALID_TRANSITION unless `row` starts from `current`. */
    assertFrom(row: T, current: S, target?: S): void {
      if (!fromOf(row).includes(current)) throw invalidTransition(row, current, target);
    },
    /** The "allowed only in …" error of an edit or action outside its states. */
    notAllowed,
    /** Throws `notAllowed` unless `current` is one of `allowed`. */
    assertIn(code: NotAllowedCode, what: string, current: S, allowed: readonly S[]): void {
      if (!allowed.includes(current)) throw notAllowed(code, what, current, allowed);
    },
  };
}

export type Lifecycle<S extends string, R, T extends TransitionRow<S>> = ReturnType<typeof defineLifecycle<S, R, T>>;

const ROLE_ORDER: readonly Role[] = ['red_lead', 'red_tech', 'blue_lead', 'blue_tech', 'admin', 'viewer'];

/** A role set as the docs' "Who" columns write it: `Any`, `all but V`, or `RL, BL, A`. */
export function whoColumn(roles: readonly Role[]): string {
  const same = (set: readonly Role[]) => set.length === roles.length && set.every((role) => roles.includes(role));
  if (same(Roles.any)) return 'Any';
  if (same(Roles.allButViewer)) return 'all but V';
  return ROLE_ORDER.filter((role) => roles.includes(role))
    .map((role) => ROLE_ABBREVIATIONS[role])
    .join(', ');
}
