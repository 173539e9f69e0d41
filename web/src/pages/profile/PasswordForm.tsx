import { type FormEvent, useState } from 'react';
import { changePassword } from '../../rest.ts';

/** The own password change through the REST route, which also renews the session cookie. */
export function PasswordForm() {
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const next = String(form.get('new-password'));
    setDone(false);
    if (next !== form.get('confirm-password')) return setProblem('The new password and its confirmation differ.');
    try {
      await changePassword(String(form.get('current-password')), next);
      setProblem(undefined);
      setDone(true);
      formElement.reset();
    } catch (error) {
      setProblem((error as Error).message);
    }
  }

  return (
    <form aria-labelledby="password-title" className="profile-form" onSubmit={(event) => void submit(event)}>
      <h2 id="password-title">Change your password</h2>
      <div className="field">
        <label htmlFor="current-password">Current password</label>
        <input id="current-password" name="current-password" type="password" autoComplete="current-password" required />
      </div>
      <div className="field">
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
      </div>
      <div className="field">
        <label htmlFor="confirm-password">Confirm the new password</label>
        <input id="confirm-password" name="confirm-password" type="password" autoComplete="new-password" required />
      </div>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      {done && <p role="status">Password changed.</p>}
      <button type="submit" className="button primary">
        Change password
      </button>
    </form>
  );
}
