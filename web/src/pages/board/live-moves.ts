import { useEffect, useRef, useState } from 'react';
import { useSubscription } from 'urql';
import { type FragmentType, graphql } from '../../gql';
import type { TestState } from '../../gql/graphql.ts';
import type { TestCardFragment } from './TestCard.tsx';

const TestMovedDocument = graphql(`
  subscription TestMoved($campaignId: UUID) {
    testStateChanged(campaignId: $campaignId) {
      testId
      toState
      test { id ...TestCard }
    }
  }
`);

export interface LiveMove {
  testId: string;
  toState: TestState;
  test: FragmentType<typeof TestCardFragment>;
}

/**
 * Tests that moved since the board's current answer (`testStateChanged`): shown in their new column at once, and
 * the board asked again; the moves are dropped when that new answer arrives.
 */
export function useLiveMoves(campaignId: string | undefined, answer: unknown, refresh: () => void): LiveMove[] {
  const [moved] = useSubscription({ query: TestMovedDocument, variables: { campaignId } });
  const [moves, setMoves] = useState<(LiveMove & { on: unknown })[]>([]);
  const current = useRef(answer);
  current.current = answer;
  const last = moved.data?.testStateChanged;
  useEffect(() => {
    if (!last) return;
    setMoves((earlier) => [...earlier.filter((move) => move.testId !== last.testId), { ...last, on: current.current }]);
    refresh();
  }, [last, refresh]);
  return moves.filter((move) => move.on === answer);
}
