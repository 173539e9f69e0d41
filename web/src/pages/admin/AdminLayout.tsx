import { NavLink, Outlet } from 'react-router';
import { RequireRoleSet } from '../../access.tsx';

const SECTIONS = [
  ['users', 'Users'],
  ['data-sources', 'Data sources'],
  ['webhooks', 'Webhooks'],
  ['trackers', 'Issue trackers'],
  ['feeds', 'Threat-intel feeds'],
  ['email', 'E-mail'],
  ['sso', 'Single sign-on'],
  ['score-weights', 'Score weights'],
  ['audit-log', 'Audit log'],
] as const;

/** Every administration page: open to the role set `admin`, with the section navigation above it. */
export default function AdminLayout() {
  return (
    <RequireRoleSet set="admin">
      <nav aria-label="Administration" className="admin-nav">
        {SECTIONS.map(([path, label]) => (
          <NavLink key={path} to={`/admin/${path}`}>
            {label}
          </NavLink>
        ))}
      </nav>
      <div className="admin-page">
        <Outlet />
      </div>
    </RequireRoleSet>
  );
}
