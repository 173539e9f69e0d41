import { type FormEvent, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type { UpdateScoreConfigMutation, UpdateScoreConfigMutationVariables } from '../../gql/graphql.ts';
import { Field } from '../../components/Field.tsx';
import { type Action, fieldProblem, useAction, when } from './admin-forms.ts';
import { Outcome } from '../../components/Outcome.tsx';

const ScoreConfigDocument = graphql(`
  query AdminScoreConfig {
    scoreConfig {
      updatedAt
      weights { coverage detection validationFreshness detectionRate }
      defaults { coverage detection validationFreshness detectionRate }
      terms { name description }
    }
  }
`);

const UpdateScoreConfigDocument = graphql(`
  mutation UpdateScoreConfig($input: UpdateScoreConfigInput!) {
    updateScoreConfig(input: $input) { updatedAt weights { coverage detection validationFreshness detectionRate } }
  }
`);

type SaveAction = Action<UpdateScoreConfigMutation, UpdateScoreConfigMutationVariables>;

const TERMS = [
  ['coverage', 'Coverage', 'coverage'],
  ['detection', 'Detection', 'detection'],
  ['validationFreshness', 'Validation freshness', 'validation_freshness'],
  ['detectionRate', 'Detection rate', 'detection_rate'],
] as const;
type Term = (typeof TERMS)[number][0];

/** The weights of the technique score's terms; the server checks each and that together they add up to 1. */
export default function ScoreWeightsPage() {
  const [{ data, error }, refetch] = useQuery({ query: ScoreConfigDocument });
  const saving = useAction(UpdateScoreConfigDocument);
  return (
    <section aria-labelledby="score-title">
      <h1 id="score-title">Score weights</h1>
      {error && <p role="alert">The score weights could not be loaded: {error.message}</p>}
      {data && (
        <>
          <p>{data.scoreConfig.updatedAt ? `Last saved ${when(data.scoreConfig.updatedAt)}.` : 'The default weights apply.'}</p>
          <WeightsForm
            key={data.scoreConfig.updatedAt ?? 'defaults'}
            weights={data.scoreConfig.weights}
            defaults={data.scoreConfig.defaults}
            terms={data.scoreConfig.terms}
            saving={saving}
            onSaved={() => refetch({ requestPolicy: 'network-only' })}
          />
        </>
      )}
    </section>
  );
}

function WeightsForm(props: {
  weights: Record<Term, number>;
  defaults: Record<Term, number>;
  terms: { name: string; description: string }[];
  saving: SaveAction;
  onSaved(): void;
}) {
  const [values, setValues] = useState(
    () => Object.fromEntries(TERMS.map(([term]) => [term, String(props.weights[term])])) as Record<Term, string>,
  );
  const { saving } = props;
  const sum = TERMS.reduce((total, [term]) => total + (Number(values[term]) || 0), 0);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const weights = Object.fromEntries(TERMS.map(([term]) => [term, Number(values[term])])) as Record<Term, number>;
    if (await saving.run({ input: { weights } }, 'Score weights saved.')) props.onSaved();
  };
  const sumProblem = fieldProblem(saving.problem, 'weights');
  const description = (name: string) => props.terms.find((term) => term.name === name)?.description;
  return (
    <form aria-label="Score weights" onSubmit={submit} className="admin-card">
      <fieldset disabled={saving.busy} aria-describedby={sumProblem ? 'weights-sum weights-error' : 'weights-sum'}>
        <legend>Weights (each from 0 to 1, together 1)</legend>
        {TERMS.map(([term, label, name]) => (
          <Field key={term} id={`weight-${term}`} label={label} error={fieldProblem(saving.problem, term)}>
            {(describedBy) => (
              <>
                <input
                  id={`weight-${term}`}
                  type="number"
                  step="any"
                  inputMode="decimal"
                  value={values[term]}
                  aria-describedby={[describedBy, `weight-${term}-hint`].filter(Boolean).join(' ')}
                  onChange={(e) => setValues({ ...values, [term]: e.target.value })}
                />
                <span id={`weight-${term}-hint`} className="hint">
                  {`${description(name) ?? ''} Default ${props.defaults[term]}.`}
                </span>
              </>
            )}
          </Field>
        ))}
        <p id="weights-sum">{`Together: ${Math.round(sum * 1000) / 1000}`}</p>
        {sumProblem && (
          <p id="weights-error" role="alert" className="error">
            {`Weights ${sumProblem}`}
          </p>
        )}
      </fieldset>
      <button type="submit" className="button primary" disabled={saving.busy}>
        Save score weights
      </button>
      <Outcome problem={saving.problem} done={saving.done} fieldsShown={['weights', ...TERMS.map(([term]) => term)]} />
    </form>
  );
}
