import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, type Problem, problemOf } from '../../components/problems.ts';
import { Outcome } from '../../components/Outcome.tsx';

const ACTOR_LIMIT = 200;

const ThreatActorsDocument = graphql(`
  query CampaignActors($limit: Int!) {
    threatActors(limit: $limit) { total items { id name externalId } }
  }
`);

const FromActorDocument = graphql(`
  mutation CreateCampaignFromActor($actorId: ID!, $input: CampaignFromThreatActorInput) {
    createCampaignFromThreatActor(actorId: $actorId, input: $input) { id }
  }
`);

/** A threat_actor campaign with a draft test per technique the chosen actor uses; on success its page opens. */
export function FromThreatActorForm() {
  const navigate = useNavigate();
  const [{ data, error }] = useQuery({ query: ThreatActorsDocument, variables: { limit: ACTOR_LIMIT } });
  const [actorId, setActor] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const [{ fetching }, create] = useMutation(FromActorDocument);
  const actors = data?.threatActors;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ actorId, input: { name: name.trim() || null } });
    setProblem(problemOf(result.error));
    if (result.data) navigate(`/campaigns/${result.data.createCampaignFromThreatActor.id}`);
  };
  return (
    <form aria-labelledby="from-actor-title" className="campaign-form" onSubmit={submit}>
      <h2 id="from-actor-title">Campaign from a threat actor</h2>
      {error && <p role="alert">The threat actors could not be loaded: {error.message}</p>}
      <fieldset disabled={fetching || !actors}>
        <legend className="visually-hidden">The threat actor to emulate</legend>
        <Field id="actor" label="Threat actor" error={fieldProblem(problem, 'actorId')}>
          {(describedBy) => (
            <select id="actor" required value={actorId} aria-describedby={describedBy} onChange={(e) => setActor(e.target.value)}>
              <option value="">Choose an actor</option>
              {actors?.items.map((actor) => (
                <option key={actor.id} value={actor.id}>
                  {actor.externalId ? `${actor.name} (${actor.externalId})` : actor.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {actors && actors.total > actors.items.length && (
          <p className="hint">{`The first ${actors.items.length} of ${actors.total} actors, by name.`}</p>
        )}
        <Field id="actor-campaign-name" label="Name (optional)" error={fieldProblem(problem, 'name')}>
          {(describedBy) => (
            <input id="actor-campaign-name" value={name} aria-describedby={describedBy} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <button type="submit" className="button primary">
          Create from actor
        </button>
      </fieldset>
      <Outcome problem={problem} fieldsShown="any" />
    </form>
  );
}
