import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { ApiKeys } from './ApiKeys.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { Preferences } from './Preferences.tsx';

const ProfileDocument = graphql(`
  query Profile {
    me { id username displayName email role authSource preferences }
    myApiKeys { ...ApiKeyRow }
  }
`);

/** The own account: who the API says you are, your preferences, your password and your API keys. */
export default function ProfilePage() {
  const [{ data, error, fetching }, reexecute] = useQuery({ query: ProfileDocument });
  if (fetching && !data) return <p className="loading">Loading…</p>;
  if (error || !data) return <p role="alert">Your profile could not be loaded: {error?.message}</p>;
  const { me } = data;
  return (
    <article aria-labelledby="profile-title" className="profile-page">
      <h1 id="profile-title">Your profile</h1>
      <section aria-labelledby="account-title">
        <h2 id="account-title">Account</h2>
        <dl className="facts">
          <dt>Username</dt>
          <dd className="text">{me.username}</dd>
          <dt>Display name</dt>
          <dd className="text">{me.displayName || '—'}</dd>
          <dt>E-mail</dt>
          <dd className="text">{me.email || '—'}</dd>
          <dt>Role</dt>
          <dd>{me.role.replace('_', ' ')}</dd>
        </dl>
        <p className="hint">An administrator changes the display name, the e-mail address and the role.</p>
      </section>
      <Preferences preferences={me.preferences} />
      {me.authSource === 'local' ? (
        <PasswordForm />
      ) : (
        <section aria-labelledby="password-title">
          <h2 id="password-title">Password</h2>
          <p>You sign in through single sign-on: your password is managed there.</p>
        </section>
      )}
      <ApiKeys keys={data.myApiKeys} onChanged={() => reexecute({ requestPolicy: 'network-only' })} />
    </article>
  );
}
