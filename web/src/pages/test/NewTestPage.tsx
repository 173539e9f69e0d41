import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useClient, useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { Field } from './Field.tsx';
import { fieldProblem, type Problem, problemOf } from './problems.ts';

const NewTestChoicesDocument = graphql(`
  query NewTestChoices {
    campaigns(limit: 100) { items { id name status } }
  }
`);

const TechniqueByIdDocument = graphql(`
  query TechniqueById($ttpId: String!) {
    technique(ttpId: $ttpId) { id ttpId name platforms }
  }
`);

const CreateTestDocument = graphql(`
  mutation CreateTestFromForm($input: CreateTestInput!) {
    createTest(input: $input) { id }
  }
`);

/** Campaigns a new test may join: not yet completed. */
const OPEN_STATUSES = new Set(['draft', 'active']);

/** A new test in draft: the technique by its ATT&CK id, a name, and optionally a description, platform, campaign and procedure. */
export default function NewTestPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const client = useClient();
  const [{ data: choices }] = useQuery({ query: NewTestChoicesDocument });
  const [creation, create] = useMutation(CreateTestDocument);
  const [ttpId, setTtpId] = useState(search.get('technique') ?? '');
  const [campaignId, setCampaignId] = useState(search.get('campaign') ?? '');
  const [problem, setProblem] = useState<Problem>();
  const busy = creation.fetching;
  const campaigns = choices?.campaigns.items.filter((campaign) => OPEN_STATUSES.has(campaign.status)) ?? [];

  async function submit(form: FormData) {
    setProblem(undefined);
    const wanted = ttpId.trim().toUpperCase();
    if (!wanted) return setProblem({ message: 'Give the ATT&CK id of the technique, e.g. T1059.001.', field: 'technique' });
    const found = await client.query(TechniqueByIdDocument, { ttpId: wanted }, { requestPolicy: 'network-only' }).toPromise();
    const technique = found.data?.technique;
    if (!technique) {
      const refused = problemOf(found.error);
      return setProblem(
        refused?.code === 'NOT_FOUND'
          ? { message: `No technique ${wanted} in the catalog.`, field: 'technique' }
          : (refused ?? { message: 'The technique could not be looked up.' }),
      );
    }
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    const result = await create({
      input: {
        techniqueId: technique.id,
        name: text('name'),
        description: text('description'),
        platform: text('platform'),
        procedureText: text('procedure'),
        campaignId: campaignId || undefined,
      },
    });
    if (result.data) return navigate(`/tests/${result.data.createTest.id}`);
    const refused = problemOf(result.error);
    setProblem(refused?.field === 'techniqueId' ? { ...refused, field: 'technique' } : refused);
  }

  const outsideFields =
    problem && !['technique', 'name', 'description', 'platform', 'procedureText', 'campaignId'].includes(problem.field ?? '');
  return (
    <section aria-labelledby="new-test-title" className="new-test-page">
      <p>
        <Link to="/board">Back to the board</Link>
      </p>
      <h1 id="new-test-title">New test</h1>
      <p className="hint">The test starts in draft; the red side starts its execution from the test's page.</p>
      <form
        className="new-test-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit(new FormData(event.currentTarget));
        }}
      >
        <Field id="new-test-technique" label="Technique (ATT&CK id)" error={fieldProblem(problem, 'technique')}>
          {(describedBy) => (
            <input
              id="new-test-technique"
              value={ttpId}
              onChange={(event) => setTtpId(event.target.value)}
              placeholder="T1059.001"
              required
              aria-describedby={describedBy}
              autoComplete="off"
            />
          )}
        </Field>
        <Field id="new-test-name" label="Name" error={fieldProblem(problem, 'name')}>
          {(describedBy) => <input id="new-test-name" name="name" required maxLength={255} aria-describedby={describedBy} />}
        </Field>
        <Field id="new-test-description" label="Description" error={fieldProblem(problem, 'description')}>
          {(describedBy) => <textarea id="new-test-description" name="description" rows={3} aria-describedby={describedBy} />}
        </Field>
        <Field id="new-test-platform" label="Platform" error={fieldProblem(problem, 'platform')}>
          {(describedBy) => <input id="new-test-platform" name="platform" placeholder="Windows" aria-describedby={describedBy} />}
        </Field>
        <Field id="new-test-campaign" label="Campaign" error={fieldProblem(problem, 'campaignId')}>
          {(describedBy) => (
            <select
              id="new-test-campaign"
              value={campaignId}
              onChange={(event) => setCampaignId(event.target.value)}
              aria-describedby={describedBy}
            >
              <option value="">No campaign</option>
              {campaigns.map((campaign) => (
                <option key={campaign.id} value={campaign.id}>
                  {campaign.name} ({campaign.status})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="new-test-procedure" label="Procedure" error={fieldProblem(problem, 'procedureText')}>
          {(describedBy) => <textarea id="new-test-procedure" name="procedure" rows={4} aria-describedby={describedBy} />}
        </Field>
        {outsideFields && <p role="alert">{problem.message}</p>}
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create test'}
        </button>
      </form>
    </section>
  );
}
