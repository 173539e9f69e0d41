import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { Field } from '../../components/Field.tsx';
import { fieldProblem } from '../../components/problems.ts';
import { useSave } from '../test/SideForm.tsx';
import { TYPES } from './CreateCampaignForm.tsx';
import { Outcome } from '../../components/Outcome.tsx';

export const CampaignDefinitionFragment = graphql(`
  fragment CampaignDefinition on Campaign { id name description type }
`);

const UpdateCampaignDocument = graphql(`
  mutation UpdateCampaign($id: UUID!, $input: UpdateCampaignInput!) {
    updateCampaign(id: $id, input: $input) { id version ...CampaignDefinition }
  }
`);

/** Name, description and type of a campaign, behind an "Edit campaign" button, for the roles `myActions` lets edit it. */
export function EditCampaignForm(props: { campaign: FragmentType<typeof CampaignDefinitionFragment>; onSaved(): void }) {
  const campaign = useFragment(CampaignDefinitionFragment, props.campaign);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(campaign.name);
  const [description, setDescription] = useState(campaign.description);
  const [type, setType] = useState(campaign.type);
  const nameRef = useRef<HTMLInputElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const saving = useSave(UpdateCampaignDocument, () => {
    setOpen(false);
    props.onSaved();
    toggleRef.current?.focus();
  });
  useEffect(() => {
    if (open) nameRef.current?.focus();
  }, [open]);
  const types = TYPES.includes(campaign.type as (typeof TYPES)[number]) ? TYPES : [campaign.type, ...TYPES];
  const start = () => {
    setName(campaign.name);
    setDescription(campaign.description);
    setType(campaign.type);
    setOpen(true);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await saving.save({ id: campaign.id, input: { name, description, type } });
  };
  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls={open ? 'edit-campaign' : undefined}
        onClick={() => (open ? setOpen(false) : start())}
      >
        Edit campaign
      </button>
      {saving.saved && !open && <p role="status">Campaign saved.</p>}
      {open && (
        <form id="edit-campaign" aria-labelledby="edit-title" className="campaign-form" onSubmit={submit}>
          <h2 id="edit-title">Edit campaign</h2>
          <fieldset disabled={saving.busy}>
            <legend className="visually-hidden">Name, description and type</legend>
            <Field id="edit-name" label="Name" error={fieldProblem(saving.problem, 'name')}>
              {(describedBy) => (
                <input
                  ref={nameRef}
                  id="edit-name"
                  required
                  value={name}
                  aria-describedby={describedBy}
                  onChange={(e) => setName(e.target.value)}
                />
              )}
            </Field>
            <Field id="edit-description" label="Description" error={fieldProblem(saving.problem, 'description')}>
              {(describedBy) => (
                <textarea
                  id="edit-description"
                  rows={3}
                  value={description}
                  aria-describedby={describedBy}
                  onChange={(e) => setDescription(e.target.value)}
                />
              )}
            </Field>
            <Field id="edit-type" label="Type" error={fieldProblem(saving.problem, 'type')}>
              {(describedBy) => (
                <select id="edit-type" value={type} aria-describedby={describedBy} onChange={(e) => setType(e.target.value)}>
                  {types.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" className="button primary">
              Save campaign
            </button>{' '}
            <button type="button" className="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </fieldset>
          <Outcome problem={saving.problem} fieldsShown="any" />
        </form>
      )}
    </>
  );
}
