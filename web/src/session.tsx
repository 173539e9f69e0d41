import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { Provider, useQuery } from 'urql';
import { createClient } from './client.ts';
import { graphql } from './gql';
import type { ViewerQuery } from './gql/graphql.ts';
import { ChangePasswordPage } from './pages/auth/ChangePasswordPage.tsx';
import { SignInPage } from './pages/auth/SignInPage.tsx';
import { signOut as endSession } from './rest.ts';
import { AppRoutes } from './routes.tsx';
import { applyTheme } from './theme.ts';

const ViewerDocument = graphql(`
  query Viewer {
    me { id username displayName role mustChangePassword preferences }
    roleSets { name roles }
  }
`);

export type Viewer = ViewerQuery['me'] & { roleSets: ViewerQuery['roleSets'] };

interface SessionControls {
  viewer: Viewer;
  /** Starts over with a new client (after signing in, changing the password or signing out). */
  restart(): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionControls | null>(null);

export function useSession(): SessionControls {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in session');
  return session;
}

/** The app for whoever holds the browser: the sign-in page, the forced password change, or the signed-in app. */
export function Session() {
  const [connection, setConnection] = useState(createClient);
  useEffect(() => connection.dispose, [connection]);
  const restart = useCallback(() => setConnection(createClient()), []);
  return (
    <Provider value={connection.client}>
      <SessionGate restart={restart} />
    </Provider>
  );
}

function SessionGate({ restart }: { restart(): void }) {
  const [{ data, error, fetching }] = useQuery({ query: ViewerDocument });
  const signOut = useCallback(async () => {
    await endSession().catch(() => undefined);
    restart();
  }, [restart]);
  const viewer = useMemo(() => (data ? { ...data.me, roleSets: data.roleSets } : null), [data]);
  useEffect(() => applyTheme(viewer?.preferences), [viewer]);

  if (fetching && !data) return <p className="loading">Loading…</p>;
  if (!viewer) {
    const signedOut = error?.graphQLErrors.some((e) => e.extensions?.code === 'NOT_AUTHENTICATED') ?? true;
    return signedOut ? <SignInPage onSignedIn={restart} /> : <p role="alert">Violet is not reachable: {error?.message}</p>;
  }
  const session = { viewer, restart, signOut };
  return (
    <SessionContext.Provider value={session}>
      {viewer.mustChangePassword ? <ChangePasswordPage forced onChanged={restart} /> : <AppRoutes />}
    </SessionContext.Provider>
  );
}
