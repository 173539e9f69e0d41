import { type FormEvent, useState } from 'react';
import { changePassword } from '../../rest.ts';
import { useSession } from '../../session.tsx';

/** The own password change; `forced` when the account must change it before anything else. */
export function ChangePasswordPage({ forced, onChanged }: { forced?: boolean; onChanged(): void }) {
  const { signOut } = useSession();
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = String(form.get('new-password'));
    if (next !== form.get('confirm-password')) return setProblem('The new password and its confirmation differ.');
    try {
      await changePassword(String(form.get('current-password')), next);
      onChanged();
    } catch (error) {
      setProblem((error as Error).message);
    }
  }

  return (
    <main id="main" className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="change-password-title">
        <h1 id="change-password-title">Change your password</h1>
        {forced && <p>Your account needs a new password before you can continue.</p>}
        <label htmlFor="current-password">Current password</label>
        <input id="current-password" name="current-password" type="password" autoComplete="current-password" required />
        <label htmlFor="new-password">New password</label>
        <input
          id="new-password"
          name="new-password"
          type="password"
          autoComplete="new-password"
          minLength={12}
          maxLength={256}
          required
          aria-describedby="new-password-rule"
        />
        <p id="new-password-rule" className="hint">
          12 to 256 characters, not your username.
        </p>
        <label htmlFor="confirm-password">Confirm the new password</label>
        <input id="confirm-password" name="confirm-password" type="password" autoComplete="new-password" required />
        {problem && (
          <p role="alert" className="error">
            {problem}
          </p>
        )}
        <button type="submit" className="button primary">
          Change password
        </button>
        <button type="button" className="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </form>
    </main>
  );
}
