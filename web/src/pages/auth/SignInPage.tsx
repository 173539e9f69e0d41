import { type FormEvent, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { signIn } from '../../rest.ts';
import { Outcome } from '../../components/Outcome.tsx';

const SignInOptionsDocument = graphql(`
  query SignInOptions {
    ssoSignIn
  }
`);

export function SignInPage({ onSignedIn }: { onSignedIn(): void }) {
  const [{ data }] = useQuery({ query: SignInOptionsDocument });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setProblem(null);
    try {
      await signIn(String(form.get('username')), String(form.get('password')));
      onSignedIn();
    } catch (error) {
      setProblem((error as Error).message);
      setBusy(false);
    }
  }

  return (
    <main id="main" className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Violet</h1>
        <label htmlFor="username">Username</label>
        <input id="username" name="username" autoComplete="username" required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        <Outcome problem={problem} />
        <button type="submit" className="button primary" disabled={busy}>
          Sign in
        </button>
        {data?.ssoSignIn && (
          <a className="button" href="/api/v1/sso/login">
            Sign in with SSO
          </a>
        )}
      </form>
    </main>
  );
}
