import { type FormEvent, useState } from 'react';
import { changePasswordFrom, PasswordFields } from '../../components/PasswordFields.tsx';
import { useSession } from '../../session.tsx';
import { Outcome } from '../../components/Outcome.tsx';

/** The own password change; `forced` when the account must change it before anything else. */
export function ChangePasswordPage({ forced, onChanged }: { forced?: boolean; onChanged(): void }) {
  const { signOut } = useSession();
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const failure = await changePasswordFrom(event.currentTarget);
    if (failure) setProblem(failure);
    else onChanged();
  }

  return (
    <main id="main" className="auth-page">
      <form className="auth-card" onSubmit={submit} aria-labelledby="change-password-title">
        <h1 id="change-password-title">Change your password</h1>
        {forced && <p>Your account needs a new password before you can continue.</p>}
        <PasswordFields />
        <Outcome problem={problem} />
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
