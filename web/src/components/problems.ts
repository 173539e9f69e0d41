import { useCallback, useState } from 'react';
import type { CombinedError } from 'urql';

/** What the API said went wrong, in words, with the offending input field when it named one. */
export interface Problem {
  message: string;
  code?: string;
  field?: string;
}

export function problemOf(error: CombinedError | undefined): Problem | undefined {
  if (!error) return undefined;
  const first = error.graphQLErrors[0];
  if (!first) return { message: error.message };
  const { code, field } = first.extensions as { code?: string; field?: string | null };
  return { message: first.message, code, field: field?.split('.').pop() ?? undefined };
}

/** The message for `field` when the problem names it. */
export const fieldProblem = (problem: Problem | undefined, field: string) => (problem?.field === field ? problem.message : undefined);

/** The problem of a page's last action, and `acted(failure?)`, which keeps it and asks the server again. */
export function useActed(refresh: () => void) {
  const [problem, setProblem] = useState<Problem>();
  const acted = useCallback(
    (failure?: Problem) => {
      setProblem(failure);
      refresh();
    },
    [refresh],
  );
  return [problem, acted] as const;
}
