import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type CombinedError, useClient, useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { AssigneeSelect } from './AssigneeSelect.tsx';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, type Problem, problemOf } from '../../components/problems.ts';

const NewTestChoicesDocument = graphql(`
  query NewTestChoices {
    campaigns(limit: 100) { items { id name status } }
    assignableUsers { ...AssigneeOption }
  }
`);

const TemplateChoicesDocument = graphql(`
  query TemplateChoices($ttpTechniqueId: String) {
    testTemplates(filter: { isActive: true, ttpTechniqueId: $ttpTechniqueId }, limit: 100) {
      total
      items { id name ttpTechniqueId platform }
    }
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

const CreateFromTemplateDocument = graphql(`
  mutation CreateTestFromTemplateForm($input: CreateTestFromTemplateInput!) {
    createTestFromTemplate(input: $input) { id }
  }
`);

/** An ATT&CK technique or sub-technique id: only then are the templates narrowed to it. */
const TTP_ID = /^T\d{4}(\.\d{3})?$/;

/** Campaigns a new test may join: not yet completed. */
const OPEN_STATUSES = new Set(['draft', 'active']);

/** A new test in draft: the technique by its ATT&CK id, a name, and optionally a description, platform, campaign and procedure. */
export default function NewTestPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const client = useClient();
  const [{ data: choices }] = useQuery({ query: NewTestChoicesDocument });
  const [creation, create] = useMutation(CreateTestDocument);
  const [fromTemplate, createFromTemplate] = useMutation(CreateFromTemplateDocument);
  const [ttpId, setTtpId] = useState(search.get('technique') ?? '');
  const [campaignId, setCampaignId] = useState(search.get('campaign') ?? '');
  const [assignedTo, setAssignedTo] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const wantedTtp = ttpId.trim().toUpperCase();
  const [{ data: templateChoices }] = useQuery({
    query: TemplateChoicesDocument,
    variables: { ttpTechniqueId: TTP_ID.test(wantedTtp) ? wantedTtp : undefined },
  });
  const templates = templateChoices?.testTemplates.items ?? [];
  const chosenTemplate = templates.find((template) => template.id === templateId);
  const busy = creation.fetching || fromTemplate.fetching;
  const campaigns = choices?.campaigns.items.filter((campaign) => OPEN_STATUSES.has(campaign.status)) ?? [];

  async function submit(form: FormData) {
    setProblem(undefined);
    const wanted = wantedTtp;
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    if (chosenTemplate && !wanted) return created(await createFromTemplate({ input: fromTemplateInput(undefined) }));
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
    if (chosenTemplate) return created(await createFromTemplate({ input: fromTemplateInput(technique.id) }));
    return created(
      await create({
        input: {
          techniqueId: technique.id,
          name: text('name'),
          description: text('description'),
          platform: text('platform'),
          procedureText: text('procedure'),
          assignedTo: assignedTo || undefined,
          campaignId: campaignId || undefined,
        },
      }),
    );

    function fromTemplateInput(techniqueId: string | undefined) {
      return {
        templateId,
        techniqueId,
        name: text('name'),
        assignedTo: assignedTo || undefined,
        campaignId: campaignId || undefined,
      };
    }
  }

  function created(result: {
    data?: { createTest?: { id: string }; createTestFromTemplate?: { id: string } } | null;
    error?: CombinedError;
  }) {
    const test = result.data?.createTest ?? result.data?.createTestFromTemplate;
    if (test) return navigate(`/tests/${test.id}`);
    const refused = problemOf(result.error);
    setProblem(refused?.field === 'techniqueId' ? { ...refused, field: 'technique' } : refused);
  }

  const outsideFields =
    problem &&
    !['technique', 'name', 'description', 'platform', 'procedureText', 'campaignId', 'assignedTo', 'templateId'].includes(
      problem.field ?? '',
    );
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
              required={!chosenTemplate}
              aria-describedby={describedBy}
              autoComplete="off"
            />
          )}
        </Field>
        <Field id="new-test-template" label="Template (optional)" error={fieldProblem(problem, 'templateId')}>
          {(describedBy) => (
            <select
              id="new-test-template"
              value={templateId}
              onChange={(event) => setTemplateId(event.target.value)}
              aria-describedby={[describedBy, 'new-test-template-hint'].filter(Boolean).join(' ')}
            >
              <option value="">No template</option>
              {templates.map((template) => (
                <option key={template.id} value={template.id}>
                  {template.ttpTechniqueId ? `${template.ttpTechniqueId} · ` : ''}
                  {template.name}
                  {template.platform ? ` (${template.platform})` : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        <p id="new-test-template-hint" className="hint">
          {chosenTemplate
            ? "The description, platform and procedure come from the template; the technique and name default to the template's."
            : TTP_ID.test(wantedTtp)
              ? `Active templates for ${wantedTtp}${templateChoices && templateChoices.testTemplates.total > templates.length ? ` (the first ${templates.length})` : ''}.`
              : `Active templates${templateChoices && templateChoices.testTemplates.total > templates.length ? ` (the first ${templates.length}; give a technique id to narrow them)` : ''}.`}
        </p>
        <Field id="new-test-name" label="Name" error={fieldProblem(problem, 'name')}>
          {(describedBy) => (
            <input id="new-test-name" name="name" required={!chosenTemplate} maxLength={255} aria-describedby={describedBy} />
          )}
        </Field>
        <Field id="new-test-description" label="Description" error={fieldProblem(problem, 'description')}>
          {(describedBy) => (
            <textarea
              id="new-test-description"
              name="description"
              rows={3}
              disabled={Boolean(chosenTemplate)}
              aria-describedby={describedBy}
            />
          )}
        </Field>
        <Field id="new-test-platform" label="Platform" error={fieldProblem(problem, 'platform')}>
          {(describedBy) => (
            <input
              id="new-test-platform"
              name="platform"
              placeholder="Windows"
              disabled={Boolean(chosenTemplate)}
              aria-describedby={describedBy}
            />
          )}
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
        <Field id="new-test-assignee" label="Assignee (optional)" error={fieldProblem(problem, 'assignedTo')}>
          {(describedBy) => (
            <AssigneeSelect
              id="new-test-assignee"
              users={choices?.assignableUsers ?? []}
              value={assignedTo}
              onChange={setAssignedTo}
              describedBy={describedBy}
            />
          )}
        </Field>
        <Field id="new-test-procedure" label="Procedure" error={fieldProblem(problem, 'procedureText')}>
          {(describedBy) => (
            <textarea id="new-test-procedure" name="procedure" rows={4} disabled={Boolean(chosenTemplate)} aria-describedby={describedBy} />
          )}
        </Field>
        {outsideFields && <p role="alert">{problem.message}</p>}
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create test'}
        </button>
      </form>
    </section>
  );
}
