import { Link, useNavigate, useSearchParams } from 'react-router';
import { RequireRoleSet } from '../../access.tsx';
import { PlaybookForm } from './PlaybookForm.tsx';

/** Writes a new playbook (the technique named by its ATT&CK id, `?technique=` to start with); opens it once made. */
export default function NewPlaybookPage() {
  return (
    <RequireRoleSet set="leads">
      <NewPlaybook />
    </RequireRoleSet>
  );
}

function NewPlaybook() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return (
    <article className="knowledge-page">
      <p>
        <Link to="/knowledge">Back to the knowledge base</Link>
      </p>
      <PlaybookForm
        ttpId={search.get('technique') ?? ''}
        onSaved={(id) => navigate(`/knowledge/playbooks/${encodeURIComponent(id)}`)}
        onCancel={() => navigate('/knowledge')}
      />
    </article>
  );
}
