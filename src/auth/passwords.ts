import { hash, verify } from '@node-rs/argon2';
import { ValidationError } from '../errors.ts';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export const hashPassword = (password: string) => hash(password);

/** A fixed hash verified when the user does not exist, so both paths cost the same argon2 work. */
const decoyHash = hash('decoy password that nobody has');

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/** The password policy: 12 to 256 characters, not the username. */
export function assertPasswordAcceptable(password: string, username: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new ValidationError(field, `must be at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw new ValidationError(field, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
  }
  if (password.toLowerCase() === username.toLowerCase()) {
    throw new ValidationError(field, 'must not be the username');
  }
}
