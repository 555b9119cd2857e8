import { type Static, Type } from 'typebox';

export const LoginBodySchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 150 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const LoginAnswerSchema = Type.Object({
  token: Type.String({ description: 'Access token: send as `Authorization: Bearer <token>`' }),
  upstream_token: Type.String({ description: 'Upstream token: send as `Authorization-Upstream`' }),
  upstream_refresh_token: Type.String(),
});
export type LoginAnswer = Static<typeof LoginAnswerSchema>;

export const RefreshBodySchema = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 4096 }),
});
export const RefreshAnswerSchema = Type.Object({ token: Type.String() });
