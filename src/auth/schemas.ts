import { Type } from 'typebox';

export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 150 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const LoginAnswer = Type.Object({
  token: Type.String({ description: 'Access token: send as `Authorization: Bearer <token>`' }),
  upstream_token: Type.String({ description: 'Upstream token: send as `Authorization-Upstream`' }),
  upstream_refresh_token: Type.String(),
});

export const RefreshBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 4096 }) });
export const RefreshAnswer = Type.Object({ token: Type.String() });
