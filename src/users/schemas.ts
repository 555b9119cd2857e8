import { type Static, Type } from 'typebox';

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

const NewPasswordSchema = Type.String({
  minLength: MIN_PASSWORD,
  maxLength: MAX_PASSWORD,
  description:
    `${MIN_PASSWORD} to ${MAX_PASSWORD} characters, not a common password ` +
    '(400 `This password is too common.`)',
});

export const ChangePasswordBodySchema = Type.Object({
  password: Type.String({ minLength: 1, maxLength: 1024, description: 'The current password' }),
  new_password: NewPasswordSchema,
});

/** `GET users/me/`: who the caller is and which roles they hold (clients adapt their screens). */
export const MeSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  is_staff: Type.Boolean({ description: 'May update stores and hours; sees all carts' }),
  is_admin: Type.Boolean({ description: 'May do all staff may, plus controls' }),
});

export const ChangePasswordAnswerSchema = Type.Object({ detail: Type.String() });

/** `POST users/me/logout-all/`: the caller's password again (ASVS 5.0 7.5.2). */
export const LogoutAllBodySchema = Type.Object({
  password: Type.String({ minLength: 1, maxLength: 1024, description: 'The current password' }),
});

/** Passed through as upstream answers them, checked by the client. */
export { ShipmentSchema, ShipmentsSchema } from '../upstream/schemas.js';

const UsernameSchema = Type.String({ minLength: 1, maxLength: 150 });

export const RequestCodeBodySchema = Type.Object({ username: UsernameSchema });

export const RestoreCodeBodySchema = Type.Object({
  username: UsernameSchema,
  password: NewPasswordSchema,
  code: Type.String({ minLength: 1, maxLength: 64, description: 'The 6-digit code e-mailed' }),
});
export type RestoreCodeBody = Static<typeof RestoreCodeBodySchema>;

export const RequestLinkBodySchema = Type.Object({
  email: Type.String({
    minLength: 3,
    maxLength: 254,
    pattern: '^[^\\s@]+@[^\\s@]+$',
    errorMessage: 'Enter a valid email address.',
  }),
});

export const RestoreLinkBodySchema = Type.Object({
  password: NewPasswordSchema,
  repeat_password: Type.String({ maxLength: 1024 }),
  restore_password_code: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The code from the e-mailed link `/users/restore-password/<code>/`',
  }),
});
export type RestoreLinkBody = Static<typeof RestoreLinkBodySchema>;

export const CodeParamsSchema = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 200 }),
});
