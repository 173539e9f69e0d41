import type { ReactNode } from 'react';
import { type Viewer, useSession } from './session.tsx';

/** Whether the viewer's role is in a role set the server names (never a copy of the server's rules). */
export function inRoleSet(viewer: Viewer, set: string): boolean {
  return viewer.roleSets.find((candidate) => candidate.name === set)?.roles.includes(viewer.role) ?? false;
}

/** A page only some roles may open: the others see why not. */
export function RequireRoleSet({ set, children }: { set: string; children: ReactNode }) {
  const { viewer } = useSession();
  if (inRoleSet(viewer, set)) return children;
  return (
    <section aria-labelledby="not-allowed">
      <h1 id="not-allowed">Not allowed</h1>
      <p>Your role ({viewer.role.replace('_', ' ')}) may not open this page. Ask an administrator if you need access.</p>
    </section>
  );
}
