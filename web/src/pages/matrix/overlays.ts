import { useEffect, useMemo, useState } from 'react';
import { type CombinedError, useClient, useQuery } from 'urql';
import { graphql } from '../../gql';
import type { CoverageStatus } from '../../gql/graphql.ts';

/** The dashboard's largest page: one request in most databases (only techniques with an asset or a validation are listed). */
const CONFIDENCE_PAGE = 200;

const ConfidenceDocument = graphql(`
  query MatrixConfidence($offset: Int) {
    detectionLifecycleDashboard(limit: 200, offset: $offset) { total techniques { ttpId confidence } }
  }
`);

const ActorScoreDocument = graphql(`
  query MatrixActor($id: String!) {
    threatActorScore(id: $id) {
      score
      techniqueCount
      threatActor { id name externalId }
      techniques { ttpId }
    }
  }
`);

const ComparisonDocument = graphql(`
  query MatrixComparison($a: UUID!, $b: UUID!) {
    snapshotComparison(a: $a, b: $b) {
      improved
      regressed
      changed { ttpId before after }
    }
  }
`);

/** Detection confidence by ttp id (techniques not listed have none: 0), asked for only in the confidence colouring. */
export function useConfidence(enabled: boolean) {
  const client = useClient();
  const [confidence, setConfidence] = useState<Map<string, number>>();
  const [error, setError] = useState<CombinedError>();
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    void (async () => {
      const found = new Map<string, number>();
      for (let offset = 0; ; offset += CONFIDENCE_PAGE) {
        const result = await client.query(ConfidenceDocument, { offset }, { requestPolicy: 'network-only' }).toPromise();
        if (cancelled) return;
        if (!result.data) return setError(result.error);
        const page = result.data.detectionLifecycleDashboard;
        for (const row of page.techniques) found.set(row.ttpId, row.confidence);
        if (offset + CONFIDENCE_PAGE >= page.total || !page.techniques.length) break;
      }
      setError(undefined);
      setConfidence(found);
    })();
    return () => {
      cancelled = true;
    };
  }, [client, enabled]);
  return { confidence: enabled ? confidence : undefined, error };
}

/** The chosen actor's techniques and coverage score. */
export function useActor(id: string | undefined) {
  const [{ data, error, fetching }] = useQuery({ query: ActorScoreDocument, variables: { id: id ?? '' }, pause: !id });
  const score = id ? data?.threatActorScore : undefined;
  const actor = useMemo(
    () => (score ? { name: score.threatActor.name, ttpIds: new Set(score.techniques.map((row) => row.ttpId)) } : undefined),
    [score],
  );
  return { actor, score, error, fetching };
}

/** The techniques whose status changed from snapshot `a` to snapshot `b`. */
export function useComparison(a: string | undefined, b: string | undefined) {
  const ready = Boolean(a && b && a !== b);
  const [{ data, error }] = useQuery({ query: ComparisonDocument, variables: { a: a ?? '', b: b ?? '' }, pause: !ready });
  const comparison = ready ? data?.snapshotComparison : undefined;
  const changes = useMemo(
    () =>
      comparison
        ? new Map<string, { before: CoverageStatus; after: CoverageStatus }>(
            comparison.changed.map((row) => [row.ttpId, { before: row.before, after: row.after }]),
          )
        : undefined,
    [comparison],
  );
  return { changes, comparison, error };
}
