import { useClient } from 'urql';
import type { Problem } from '../../components/problems.ts';
import { graphql } from '../../gql';

const TechniqueIdDocument = graphql(`
  query KnowledgeTechnique($ttpId: String!) {
    technique(ttpId: $ttpId) { id }
  }
`);

/** Looks a technique up by its ATT&CK id: its id, or the problem to show beside the technique field. */
export function useTechniqueLookup() {
  const client = useClient();
  return async (ttpId: string): Promise<{ id: string; problem?: undefined } | { id?: undefined; problem: Problem }> => {
    const wanted = ttpId.trim();
    const found = await client.query(TechniqueIdDocument, { ttpId: wanted }, { requestPolicy: 'network-only' }).toPromise();
    if (found.data) return { id: found.data.technique.id };
    return { problem: { message: `No technique ${wanted || '(empty)'}: enter an ATT&CK id such as T1059.001`, field: 'techniqueId' } };
  };
}
