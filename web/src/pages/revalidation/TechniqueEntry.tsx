import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { problemOf } from '../../components/problems.ts';
import { REASON_LABELS } from './reasons.ts';
import { Outcome } from '../../components/Outcome.tsx';

export const QueueEntryFragment = graphql(`
  fragment QueueEntry on RevalidationEntry {
    id reason detail since riskScore technique { id ttpId name }
  }
`);

const CreateTestDocument = graphql(`
  mutation CreateRevalidationTest($input: CreateTestInput!) { createTest(input: $input) { id name } }
`);

/** One technique of the queue: its reasons, and (for the roles that create tests) a new test of it. */
export function TechniqueEntry(props: { entries: FragmentType<typeof QueueEntryFragment>[]; canCreateTests: boolean }) {
  const entries = useFragment(QueueEntryFragment, props.entries);
  const [creation, createTest] = useMutation(CreateTestDocument);
  const [created, setCreated] = useState<{ id: string; name: string }>();
  const [problem, setProblem] = useState<string>();
  const { technique } = entries[0]!;
  const nameId = `queue-${technique.id}`;
  return (
    <tr>
      <td>
        <Link id={nameId} to={`/techniques/${encodeURIComponent(technique.ttpId)}`}>
          {technique.ttpId} {technique.name}
        </Link>
      </td>
      <td>{Math.round(Math.max(...entries.map((entry) => entry.riskScore)))}</td>
      <td>
        <ul className="reasons">
          {entries.map((entry) => (
            <li key={entry.id}>
              <strong>{REASON_LABELS[entry.reason]}</strong> <span className="text">{entry.detail}</span>{' '}
              <span className="hint">
                since <time dateTime={entry.since}>{new Date(entry.since).toLocaleDateString()}</time>
              </span>
            </li>
          ))}
        </ul>
      </td>
      {props.canCreateTests && (
        <td>
          {created ? (
            <p role="status">
              Test created: <Link to={`/tests/${encodeURIComponent(created.id)}`}>{created.name}</Link>
            </p>
          ) : (
            <button
              type="button"
              className="button small"
              aria-describedby={nameId}
              disabled={creation.fetching}
              onClick={async () => {
                const result = await createTest({
                  input: {
                    techniqueId: technique.id,
                    name: `Revalidate ${technique.ttpId}`,
                    description: entries.map((entry) => entry.detail).join('\n'),
                  },
                });
                setProblem(result.error && `No test was created: ${problemOf(result.error)?.message}`);
                if (result.data) setCreated(result.data.createTest);
              }}
            >
              Create a test
            </button>
          )}
          <Outcome problem={problem} />
        </td>
      )}
    </tr>
  );
}
