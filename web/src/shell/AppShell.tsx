import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { inRoleSet } from '../access.tsx';
import { useSession } from '../session.tsx';
import { AlertsLink } from './AlertsLink.tsx';
import { NotificationBell } from './NotificationBell.tsx';
import { SearchField } from './SearchField.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { UserMenu } from './UserMenu.tsx';

/** Navigation, theme, notifications and the user menu around every signed-in page. */
export function AppShell({ children }: { children: ReactNode }) {
  const { viewer } = useSession();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <span className="brand">Violet</span>
        <nav aria-label="Main">
          <NavLink to="/matrix">Coverage matrix</NavLink>
          <NavLink to="/board">Test board</NavLink>
          <NavLink to="/campaigns">Campaigns</NavLink>
          <NavLink to="/knowledge">Knowledge</NavLink>
          {inRoleSet(viewer, 'admin') && <NavLink to="/admin/users">Users</NavLink>}
          <NavLink to="/dashboard">Dashboard</NavLink>
          <NavLink to="/reports">Reports</NavLink>
          <AlertsLink />
          {inRoleSet(viewer, 'blueLead') && <NavLink to="/revalidation">Revalidation</NavLink>}
          <NavLink to="/attack-paths">Attack paths</NavLink>
        </nav>
        <div className="shell-tools">
          <SearchField />
          <ThemeToggle />
          <NotificationBell />
          <UserMenu />
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
