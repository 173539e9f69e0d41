import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import type { LessonSeverity } from '../../gql/graphql.ts';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, type Problem, problemOf } from '../../components/problems.ts';
import { SEVERITIES } from './labels.ts';
import { useTechniqueLookup } from './technique-lookup.ts';
import { Outcome } from '../../components/Outcome.tsx';

const CreateLessonDocument = graphql(`
  mutation CreateLesson($input: CreateLessonInput!) {
    createLesson(input: $input) { id }
  }
`);

const UpdateLessonDocument = graphql(`
  mutation UpdateLesson($id: UUID!, $input: UpdateLessonInput!) {
    updateLesson(id: $id, input: $input) { id }
  }
`);

export interface LessonFields {
  id?: string;
  ttpId: string;
  title: string;
  severity: LessonSeverity;
  whatHappened: string;
  rootCause: string;
  recommendations: string;
}

const FIELDS = ['techniqueId', 'title', 'severity', 'whatHappened', 'rootCause', 'recommendations'];

/** Records a new lesson, or changes one (`lesson.id`); the technique is named by its ATT&CK id. */
export function LessonForm(props: { lesson: LessonFields; heading?: 'h1' | 'h2'; onSaved(id: string): void; onCancel(): void }) {
  const { lesson, onSaved, onCancel } = props;
  const Heading = props.heading ?? 'h2';
  const [fields, setFields] = useState(lesson);
  const [problem, setProblem] = useState<Problem>();
  const findTechnique = useTechniqueLookup();
  const [creating, create] = useMutation(CreateLessonDocument);
  const [updating, update] = useMutation(UpdateLessonDocument);
  const set = (key: keyof LessonFields) => (event: { target: { value: string } }) => setFields({ ...fields, [key]: event.target.value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const technique = await findTechnique(fields.ttpId);
    if (technique.problem) return setProblem(technique.problem);
    const input = {
      techniqueId: technique.id,
      title: fields.title.trim() || undefined,
      severity: fields.severity,
      whatHappened: fields.whatHappened,
      rootCause: fields.rootCause,
      recommendations: fields.recommendations,
    };
    const result = lesson.id ? await update({ id: lesson.id, input }) : await create({ input });
    setProblem(problemOf(result.error));
    const id = result.data && ('createLesson' in result.data ? result.data.createLesson.id : result.data.updateLesson.id);
    if (id) onSaved(id);
  };
  const titleId = lesson.id ? 'edit-lesson-title' : 'new-lesson-title';
  return (
    <form aria-labelledby={titleId} onSubmit={submit} className="knowledge-form">
      <Heading id={titleId}>{lesson.id ? 'Edit lesson' : 'New lesson'}</Heading>
      <fieldset disabled={creating.fetching || updating.fetching}>
        <legend className="visually-hidden">Lesson fields</legend>
        <Field id="lesson-technique" label="Technique (ATT&CK id)" error={fieldProblem(problem, 'techniqueId')}>
          {(describedBy) => (
            <input id="lesson-technique" required value={fields.ttpId} aria-describedby={describedBy} onChange={set('ttpId')} />
          )}
        </Field>
        <Field id="lesson-title" label="Title" error={fieldProblem(problem, 'title')}>
          {(describedBy) => <input id="lesson-title" value={fields.title} aria-describedby={describedBy} onChange={set('title')} />}
        </Field>
        <Field id="lesson-severity" label="Severity" error={fieldProblem(problem, 'severity')}>
          {(describedBy) => (
            <select id="lesson-severity" value={fields.severity} aria-describedby={describedBy} onChange={set('severity')}>
              {SEVERITIES.map((entry) => (
                <option key={entry.value} value={entry.value}>
                  {entry.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="lesson-what" label="What happened (markdown)" error={fieldProblem(problem, 'whatHappened')}>
          {(describedBy) => (
            <textarea id="lesson-what" rows={5} value={fields.whatHappened} aria-describedby={describedBy} onChange={set('whatHappened')} />
          )}
        </Field>
        <Field id="lesson-root-cause" label="Root cause (markdown)" error={fieldProblem(problem, 'rootCause')}>
          {(describedBy) => (
            <textarea id="lesson-root-cause" rows={4} value={fields.rootCause} aria-describedby={describedBy} onChange={set('rootCause')} />
          )}
        </Field>
        <Field id="lesson-recommendations" label="Recommendations (markdown)" error={fieldProblem(problem, 'recommendations')}>
          {(describedBy) => (
            <textarea
              id="lesson-recommendations"
              rows={4}
              value={fields.recommendations}
              aria-describedby={describedBy}
              onChange={set('recommendations')}
            />
          )}
        </Field>
        <div className="card-actions">
          <button type="submit" className="button primary">
            {lesson.id ? 'Save lesson' : 'Record lesson'}
          </button>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </fieldset>
      <Outcome problem={problem} fieldsShown={FIELDS} />
    </form>
  );
}
