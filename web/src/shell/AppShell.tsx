import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { inRoleSet } from '../access.tsx';
import { useSession } from '../session.tsx';
import { AlertsLink } from './AlertsLink.tsx';
import { NotificationBell } from './NotificationBell.tsx';
import { SearchField } from './SearchField.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { UserMenu } from './UserMenu.tsx';

/**
 * A group of the main navigation's links under a visual label (hidden from assistive technology, which reads the
 * links' own names; labelling the lists would also give form fields' names such as "Detection" a second owner).
 * A group with no link for the viewer is left out.
 */
function NavGroup({ label, children }: { label: string; children: ReactNode[] }) {
  const links = children.filter(Boolean);
  if (links.length === 0) return null;
  return (
    <div className="nav-group">
      <p className="nav-group-label" aria-hidden="true">
        {label}
      </p>
      <ul>
        {links.map((link, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the links of a group are fixed for the session.
          <li key={index}>{link}</li>
        ))}
      </ul>
    </div>
  );
}

/** The header (search, theme, notifications, user menu) and the main navigation around every signed-in page. */
export function AppShell({ children }: { children: ReactNode }) {
  const { viewer } = useSession();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <span className="brand">Violet</span>
        <div className="shell-tools">
          <SearchField />
          <ThemeToggle />
          <NotificationBell />
          <UserMenu />
        </div>
      </header>
      <div className="shell-body">
        <nav aria-label="Main" className="shell-nav">
          <NavGroup label="Coverage">
            {[
              <NavLink key="matrix" to="/matrix">
                Coverage matrix
              </NavLink>,
              <NavLink key="dashboard" to="/dashboard">
                Dashboard
              </NavLink>,
              <NavLink key="reports" to="/reports">
                Reports
              </NavLink>,
            ]}
          </NavGroup>
          <NavGroup label="Testing">
            {[
              <NavLink key="board" to="/board">
                Test board
              </NavLink>,
              <NavLink key="campaigns" to="/campaigns">
                Campaigns
              </NavLink>,
              <NavLink key="attack-paths" to="/attack-paths">
                Attack paths
              </NavLink>,
              inRoleSet(viewer, 'blueLead') && (
                <NavLink key="revalidation" to="/revalidation">
                  Revalidation
                </NavLink>
              ),
            ]}
          </NavGroup>
          <NavGroup label="Detection">
            {[
              <AlertsLink key="alerts" />,
              <NavLink key="knowledge" to="/knowledge">
                Knowledge
              </NavLink>,
            ]}
          </NavGroup>
          <NavGroup label="Administration">
            {[
              inRoleSet(viewer, 'admin') && (
                <NavLink key="admin" to="/admin">
                  Administration
                </NavLink>
              ),
            ]}
          </NavGroup>
        </nav>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </>
  );
}
