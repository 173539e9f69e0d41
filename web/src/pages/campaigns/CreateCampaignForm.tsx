import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, type Problem, problemOf } from '../../components/problems.ts';
import { momentOf } from './format.ts';
import { Outcome } from '../../components/Outcome.tsx';

const CreateCampaignDocument = graphql(`
  mutation CreateCampaign($input: CreateCampaignInput!) {
    createCampaign(input: $input) { id }
  }
`);

export const TYPES = ['purple', 'red', 'blue', 'regression'] as const;

/** A new campaign in draft; on success its page opens. */
export function CreateCampaignForm() {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<string>('purple');
  const [startDate, setStart] = useState('');
  const [endDate, setEnd] = useState('');
  const [recurrence, setRecurrence] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const [{ fetching }, create] = useMutation(CreateCampaignDocument);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      name,
      description,
      type,
      startDate: momentOf(startDate, 'start'),
      endDate: momentOf(endDate, 'end'),
      recurrence: recurrence.trim() || null,
    };
    const result = await create({ input });
    setProblem(problemOf(result.error));
    if (result.data) navigate(`/campaigns/${result.data.createCampaign.id}`);
  };
  return (
    <form aria-labelledby="create-title" className="campaign-form" onSubmit={submit}>
      <h2 id="create-title">New campaign</h2>
      <fieldset disabled={fetching}>
        <legend className="visually-hidden">The new campaign</legend>
        <Field id="campaign-name" label="Name" error={fieldProblem(problem, 'name')}>
          {(describedBy) => (
            <input id="campaign-name" required value={name} aria-describedby={describedBy} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <Field id="campaign-description" label="Description" error={fieldProblem(problem, 'description')}>
          {(describedBy) => (
            <textarea
              id="campaign-description"
              rows={3}
              value={description}
              aria-describedby={describedBy}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </Field>
        <Field id="campaign-type" label="Type" error={fieldProblem(problem, 'type')}>
          {(describedBy) => (
            <select id="campaign-type" value={type} aria-describedby={describedBy} onChange={(e) => setType(e.target.value)}>
              {TYPES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          )}
        </Field>
        <PeriodFields
          startDate={startDate}
          endDate={endDate}
          recurrence={recurrence}
          problem={problem}
          idPrefix="campaign"
          onStart={setStart}
          onEnd={setEnd}
          onRecurrence={setRecurrence}
        />
        <button type="submit" className="button primary">
          Create campaign
        </button>
      </fieldset>
      <Outcome problem={problem} fieldsShown="any" />
    </form>
  );
}

/** Start and end day (UTC) and the cron recurrence: the fields creation and scheduling share. */
export function PeriodFields(props: {
  idPrefix: string;
  startDate: string;
  endDate: string;
  recurrence: string;
  problem: Problem | undefined;
  onStart(value: string): void;
  onEnd(value: string): void;
  onRecurrence(value: string): void;
}) {
  const id = (name: string) => `${props.idPrefix}-${name}`;
  return (
    <>
      <Field id={id('start')} label="Start day (UTC)" error={fieldProblem(props.problem, 'startDate')}>
        {(describedBy) => (
          <input
            id={id('start')}
            type="date"
            value={props.startDate}
            aria-describedby={describedBy}
            onChange={(e) => props.onStart(e.target.value)}
          />
        )}
      </Field>
      <Field id={id('end')} label="End day (UTC)" error={fieldProblem(props.problem, 'endDate')}>
        {(describedBy) => (
          <input
            id={id('end')}
            type="date"
            value={props.endDate}
            aria-describedby={describedBy}
            onChange={(e) => props.onEnd(e.target.value)}
          />
        )}
      </Field>
      <Field id={id('recurrence')} label="Recurrence (cron, UTC)" error={fieldProblem(props.problem, 'recurrence')}>
        {(describedBy) => (
          <>
            <input
              id={id('recurrence')}
              value={props.recurrence}
              placeholder="0 6 * * 1"
              aria-describedby={[describedBy, `${id('recurrence')}-hint`].filter(Boolean).join(' ')}
              onChange={(e) => props.onRecurrence(e.target.value)}
            />
            <p id={`${id('recurrence')}-hint`} className="hint">
              Five fields (minute hour day month weekday), at most hourly; empty for none.
            </p>
          </>
        )}
      </Field>
    </>
  );
}
