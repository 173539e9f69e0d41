import { type FormEvent, useState } from 'react';
import { changePasswordFrom, PasswordFields } from '../../components/PasswordFields.tsx';
import { Outcome } from '../../components/Outcome.tsx';

/** The own password change through the REST route, which also renews the session cookie. */
export function PasswordForm() {
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setDone(false);
    const failure = await changePasswordFrom(form);
    setProblem(failure);
    if (failure) return;
    setDone(true);
    form.reset();
  }

  return (
    <form aria-labelledby="password-title" className="profile-form" onSubmit={(event) => void submit(event)}>
      <h2 id="password-title">Change your password</h2>
      <PasswordFields boxed />
      <Outcome problem={problem} done={done && 'Password changed.'} />
      <button type="submit" className="button primary">
        Change password
      </button>
    </form>
  );
}
