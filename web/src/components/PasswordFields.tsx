import type { ReactNode } from 'react';
import { changePassword } from '../rest.ts';

function Group(props: { boxed: boolean; children: ReactNode }) {
  return props.boxed ? <div className="field">{props.children}</div> : props.children;
}

/** The current password, the new one with its rule, and its confirmation; `boxed` puts each in a `.field` block. */
export function PasswordFields({ boxed = false }: { boxed?: boolean }) {
  return (
    <>
      <Group boxed={boxed}>
        <label htmlFor="current-password">Current password</label>
        <input id="current-password" name="current-password" type="password" autoComplete="current-password" required />
      </Group>
      <Group boxed={boxed}>
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
      </Group>
      <Group boxed={boxed}>
        <label htmlFor="confirm-password">Confirm the new password</label>
        <input id="confirm-password" name="confirm-password" type="password" autoComplete="new-password" required />
      </Group>
    </>
  );
}

/** Changes the own password from a form of `PasswordFields`: nothing when done, else what went wrong in words. */
export async function changePasswordFrom(form: HTMLFormElement): Promise<string | undefined> {
  const fields = new FormData(form);
  const next = String(fields.get('new-password'));
  if (next !== fields.get('confirm-password')) return 'The new password and its confirmation differ.';
  try {
    await changePassword(String(fields.get('current-password')), next);
  } catch (error) {
    return (error as Error).message;
  }
}
