import { useState } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { uploadEvidence } from './upload.ts';
import { Outcome } from '../../components/Outcome.tsx';

export const EvidencePartFragment = graphql(`
  fragment EvidencePart on Test {
    id
    myEvidenceTeams
    evidences { id fileName sizeBytes team uploadedAt uploadedBy { username displayName } }
  }
`);

const sizeText = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

function Upload(props: { testId: string; teams: string[]; onDone(): void }) {
  const [team, setTeam] = useState(props.teams[0] ?? '');
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<number>();
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  return (
    <form
      aria-labelledby="upload-title"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!file) return setProblem('Choose a file first.');
        setProblem(undefined);
        setDone(undefined);
        setProgress(0);
        setUploading(true);
        try {
          await uploadEvidence(props.testId, team, file, setProgress);
          // The bar stays full beside the confirmation until the next upload.
          setProgress(1);
          setDone(`${file.name} uploaded.`);
          props.onDone();
        } catch (error) {
          setProgress(undefined);
          setProblem((error as Error).message);
        } finally {
          setUploading(false);
        }
      }}
    >
      <h3 id="upload-title">Add evidence</h3>
      <fieldset disabled={uploading}>
        <legend className="visually-hidden">Evidence file</legend>
        {props.teams.length > 1 && (
          <>
            <label htmlFor="evidence-team">Team</label>
            <select id="evidence-team" value={team} onChange={(e) => setTeam(e.target.value)}>
              {props.teams.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </>
        )}
        <label htmlFor="evidence-file">Evidence file</label>
        <input id="evidence-file" type="file" onChange={(e) => setFile(e.target.files?.[0])} />
        <button type="submit" className="button">
          Upload
        </button>
      </fieldset>
      {progress !== undefined && (
        <progress aria-label="Upload progress" max={1} value={progress}>
          {Math.round(progress * 100)}%
        </progress>
      )}
      <Outcome problem={problem} />
      {done && <p role="status">{done}</p>}
    </form>
  );
}

/** The files attached to the test, each downloadable, and the upload when the server allows it. */
export function Evidence(props: { test: FragmentType<typeof EvidencePartFragment>; onChanged(): void }) {
  const test = useFragment(EvidencePartFragment, props.test);
  return (
    <section aria-labelledby="evidence-title">
      <h2 id="evidence-title">Evidence</h2>
      {test.evidences.length === 0 ? (
        <p>No evidence yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Team</th>
              <th scope="col">Size</th>
              <th scope="col">Uploaded by</th>
              <th scope="col">Date</th>
            </tr>
          </thead>
          <tbody>
            {test.evidences.map((evidence) => (
              <tr key={evidence.id}>
                <td>
                  <a href={`/api/v1/evidence/${encodeURIComponent(evidence.id)}/download`} download={evidence.fileName}>
                    {evidence.fileName}
                  </a>
                </td>
                <td>{evidence.team}</td>
                <td>{sizeText(evidence.sizeBytes)}</td>
                <td>{evidence.uploadedBy ? evidence.uploadedBy.displayName || evidence.uploadedBy.username : 'deleted account'}</td>
                <td>
                  <time dateTime={evidence.uploadedAt}>{new Date(evidence.uploadedAt).toLocaleString()}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {test.myEvidenceTeams.length > 0 && <Upload testId={test.id} teams={test.myEvidenceTeams} onDone={props.onChanged} />}
    </section>
  );
}
