import { Type } from 'typebox';
import { MAX_PASSWORD, MIN_PASSWORD } from './restore.js';

const NewPassword = Type.String({
  minLength: MIN_PASSWORD,
  maxLength: MAX_PASSWORD,
  description: `${MIN_PASSWORD} to ${MAX_PASSWORD} characters`,
});

export const ChangePasswordBody = Type.Object({
  password: Type.String({ minLength: 1, maxLength: 1024, description: 'The current password' }),
  new_password: NewPassword,
});

export const ChangePasswordAnswer = Type.Object({ detail: Type.String() });

/** Passed through as upstream answers them, checked by the client. */
export { Shipment, Shipments } from '../upstream/schemas.js';

const Username = Type.String({ minLength: 1, maxLength: 150 });

export const RequestCodeBody = Type.Object({ username: Username });

export const RestoreCodeBody = Type.Object({
  username: Username,
  password: NewPassword,
  code: Type.String({ minLength: 1, maxLength: 64, description: 'The 6-digit code e-mailed' }),
});

export const RequestLinkBody = Type.Object({
  email: Type.String({
    minLength: 3,
    maxLength: 254,
    pattern: '^[^\\s@]+@[^\\s@]+$',
    errorMessage: 'Enter a valid email address.',
  }),
});

export const RestoreLinkBody = Type.Object({
  password: NewPassword,
  repeat_password: Type.String({ maxLength: 1024 }),
  restore_password_code: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The code from the e-mailed link `/users/restore-password/<code>/`',
  }),
});

export const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) });
