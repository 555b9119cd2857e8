import { Invalid } from '../errors.js';
import type { UpstreamClient } from '../upstream/client.js';

/**
 * Changes the password upstream with the user's upstream token. Invalid on `password` when
 * the current password is wrong, on `new_password` when upstream refuses the new one.
 */
export async function changePassword(
  upstream: UpstreamClient,
  token: string,
  password: string,
  newPassword: string,
  /** Runs the password check within the account's daily bounds (src/protections/failures.ts). */
  guard?: <T>(check: () => Promise<T>, wrong: (result: T) => boolean) => Promise<T>,
): Promise<void> {
  const check = () => upstream.changePassword(token, password, newPassword);
  const outcome = await (guard ? guard(check, (answer) => answer === 'wrong_password') : check());
  if (outcome === 'wrong_password') {
    throw Invalid.field('password', 'Your current password was entered incorrectly.');
  }
  if (outcome === 'new_password_refused') {
    throw Invalid.field('new_password', 'The upstream system refused this password.');
  }
}
