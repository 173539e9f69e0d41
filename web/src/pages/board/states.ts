import type { TestState } from '../../gql/graphql.ts';

/** The board's columns, in the order a test moves through them. */
export const BOARD_STATES: { state: TestState; label: string }[] = [
  { state: 'draft', label: 'Draft' },
  { state: 'red_executing', label: 'Red executing' },
  { state: 'blue_evaluating', label: 'Blue evaluating' },
  { state: 'in_review', label: 'In review' },
  { state: 'validated', label: 'Validated' },
  { state: 'rejected', label: 'Rejected' },
];

export const stateLabel = (state: TestState) => BOARD_STATES.find((entry) => entry.state === state)?.label ?? state;
