import type { App } from '../deps.js';
import { Invalid } from '../errors.js';
import { currentUser, requireUpstreamToken, upstreamToken } from '../http/auth.js';
import { errors } from '../http/errors.js';
import { serviceBase } from '../http/links.js';
import { NoBodySchema } from '../http/schemas.js';
import { protections } from '../protections/context.js';
import { endSessions } from '../protections/sessions.js';
import { limitBy, limitByAccount } from '../protections/throttle.js';
import type { UpstreamClient } from '../upstream/client.js';
import { refuseCommonPassword } from './common-passwords.js';
import { usersContext } from './context.js';
import { changePassword } from './logic.js';
import {
  type RestoreDeps,
  restoreWithCode,
  restoreWithLink,
  sendRestoreCode,
  sendRestoreLinks,
} from './restore.js';
import {
  ChangePasswordAnswerSchema,
  ChangePasswordBodySchema,
  LogoutAllBodySchema,
  MeSchema,
  RequestCodeBodySchema,
  RequestLinkBodySchema,
  RestoreCodeBodySchema,
  RestoreLinkBodySchema,
  ShipmentsSchema,
} from './schemas.js';

export { restorePageRoutes } from './page.js';

const tags = ['users'];

const LIMITED =
  'Rate-limited (`AUTH_RATE_LIMIT_PER_MINUTE` per minute, fixed one-minute windows): ' +
  '429 `{"detail", "code": "throttled"}` with `Retry-After` (seconds). Every attempt counts, ' +
  'successful or not. The restore endpoints and the restore page share one set of counters ' +
  '(per client address, per username, per e-mail address), separate from the login counters.';

const NO_ENUMERATION =
  'Answers the same status, in the same time, whether or not the account exists: the ' +
  'upstream look-up, the code and the e-mail happen after the answer (a failure there is ' +
  'logged, never shown; nothing is sent for an unknown account). A new request replaces the ' +
  "account's earlier code of this variant. Codes are random, stored only as hashes, expire " +
  'after `RESTORE_CODE_TTL_SECONDS` (default 3600) and die after 5 attempts; an account gets ' +
  'at most `RESTORE_CODES_PER_DAY` codes of a variant in 24 hours (beyond, the answer is the ' +
  'same and nothing is sent). In production without `SMTP_URL`: 503 `restore_unavailable`.';

const ATTEMPTS =
  'A code dies after 5 attempts, counted across all client addresses; an account has ' +
  '`RESTORE_ATTEMPTS_PER_DAY` attempts in 24 hours, both variants and the restore page ' +
  'together (beyond, its codes answer as wrong ones).';

export default async function userRoutes(app: App): Promise<void> {
  const { upstream, clock, database, config } = app.deps;
  const { db } = database;
  const { mailer, jobs, restoreOn } = usersContext(app);
  const { throttle, failures } = protections(app);
  const restore: RestoreDeps = {
    db,
    upstream,
    mailer,
    clock,
    secret: config.jwtSecret,
    ttlSeconds: config.restoreCodeTtlSeconds,
    budget: {
      codesPerDay: config.restoreCodesPerDay,
      attemptsPerDay: config.restoreAttemptsPerDay,
    },
    sockets: app.deps.notifier,
  };
  const base = publicBase(app);

  app.get(
    '/users/me/',
    {
      schema: {
        tags,
        operationId: 'getCurrentUser',
        summary: 'The caller: identity and roles',
        description:
          'The local user of the access token, as stored at the last login, with its roles ' +
          '(granted with the admin command). Staff and admin screens use it to decide what ' +
          'to show; the roles are still checked on every call.',
        response: { 200: MeSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return {
        id: user.id,
        username: user.username,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        is_staff: user.isStaff,
        is_admin: user.isAdmin,
      };
    },
  );

  app.patch(
    '/users/me/change-password/',
    {
      config: { upstream: 'required-token' },
      preValidation: limitByAccount(throttle),
      schema: {
        tags,
        operationId: 'changePassword',
        summary: "Change the caller's password (set upstream)",
        description:
          'Needs `Authorization-Upstream` (400 `upstream_token_missing` without it; 401 ' +
          '`upstream_token_not_valid` when upstream refuses it, or when it belongs to another ' +
          'user than the access token). A wrong current password is 400 on ' +
          '`password`; `new_password` takes 8 to 128 characters and is not a common password ' +
          '(400 on `new_password`, `This password is too common.`: nothing is sent upstream). ' +
          'Rate-limited with the login, per client address and per account (429 `throttled`): ' +
          'a stolen session cannot guess the password here. ' +
          'Success: 200 `{"detail": "Password changed."}`, and every token issued before ' +
          "(the caller's own too) is refused from then on (401 `token_not_valid`; refresh " +
          '400): log in again with the new password. Upstream failures: 502, 503, 504.',
        body: ChangePasswordBodySchema,
        response: { 200: ChangePasswordAnswerSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // Before anything reaches upstream: a common password is never sent there.
      refuseCommonPassword('new_password', request.body.new_password);
      const token = requireUpstreamToken(request);
      await requireOwnToken(upstream, token, user.username);
      await changePassword(
        upstream,
        token,
        request.body.password,
        request.body.new_password,
        (check, wrong) => failures.guard(user.username, request.ip, check, wrong),
      );
      // Every token issued before, the caller's too: a stolen one dies with the old password.
      await endSessions(db, user.id, app.deps.notifier);
      return { detail: 'Password changed.' };
    },
  );

  app.post(
    '/users/me/logout-all/',
    {
      config: { upstream: 'no-token' },
      preValidation: limitByAccount(throttle),
      schema: {
        tags,
        operationId: 'logoutAll',
        summary: "End every session of the caller's (log out everywhere)",
        description:
          'With the current password (checked upstream; 400 on `password` when wrong): every ' +
          "token issued before, the caller's own too, is refused from then on (401 " +
          '`token_not_valid`; refresh 400), unused WebSocket connection codes die, and open ' +
          'notification WebSockets of the caller close with 4401 on every instance. For a ' +
          'user who thinks a token was stolen and keeps the password. Rate-limited with the ' +
          'login, per client address and per account (429 `throttled`). Upstream failures: ' +
          '502, 503, 504.',
        body: LogoutAllBodySchema,
        response: { 200: ChangePasswordAnswerSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // Re-authentication: a stolen token alone cannot end the owner's other sessions.
      const pair = await failures.guard(
        user.username,
        request.ip,
        () => upstream.login(user.username, request.body.password),
        (answer) => !answer,
      );
      if (!pair) {
        throw Invalid.field('password', 'Your current password was entered incorrectly.');
      }
      await endSessions(db, user.id, app.deps.notifier);
      return { detail: 'Logged out everywhere.' };
    },
  );

  app.get(
    '/users/me/shipments/',
    {
      config: { upstream: 'optional-token' },
      schema: {
        tags,
        operationId: 'listShipments',
        summary: "The caller's shipments, by the telephone number of their profile",
        description:
          'With `Authorization-Upstream`, the telephone number comes from the upstream ' +
          "profile of that token's user (401 `upstream_token_not_valid` when upstream refuses " +
          'it, or when the token belongs to another user than the access token); without it, ' +
          'from the profile stored at the last login. Shipments are then looked up upstream, ' +
          "as for `categories/`: with the caller's `Authorization-Upstream` token when sent, " +
          'otherwise with the service account. No telephone number: 200 `[]`. Upstream ' +
          'failures: 502, 503, 504.',
        response: { 200: ShipmentsSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const token = upstreamToken(request);
      let telephone = user.telephone;
      if (token) {
        const profile = await requireOwnToken(upstream, token, user.username);
        telephone = typeof profile.telephone === 'string' ? profile.telephone : '';
      }
      if (telephone.trim() === '') return [];
      return upstream.shipments(token ? { token } : 'service', telephone.trim());
    },
  );

  app.post(
    '/request-restore-code/',
    {
      config: { auth: 'public', mails: true },
      preValidation: limitBy(throttle, 'restore', 'username'),
      schema: {
        tags,
        operationId: 'requestRestoreCode',
        summary: 'Password restore (variant A): e-mail a 6-digit code to the user',
        description: `Always 202, no body. ${NO_ENUMERATION} ${LIMITED} Counted per client address and per username.`,
        body: RequestCodeBodySchema,
        response: { 202: NoBodySchema },
      },
    },
    async (request, reply) => {
      if (!restoreOn) throw errors.restoreUnavailable();
      // The same work for every name: the look-up and the mail run after the answer.
      const { username } = request.body;
      jobs.add('restore code e-mail', () => sendRestoreCode(restore, username));
      return reply.code(202).send();
    },
  );

  app.post(
    '/restore-password/',
    {
      config: { auth: 'public', upstream: 'no-token' },
      preValidation: limitBy(throttle, 'restore', 'username'),
      schema: {
        tags,
        operationId: 'restorePassword',
        summary: 'Password restore (variant A): set a new password with the e-mailed code',
        description:
          '202, no body: the new password is set upstream, the code is spent, and so is ' +
          'every other unused code of the user; every token of the user issued before is ' +
          "refused from then on (401 `token_not_valid`; refresh 400). A wrong, expired or used code (or another user's) " +
          'is 400 `{"code": ["Invalid or expired code."]}`; `password` takes 8 to 128 ' +
          'characters and is not a common password (400 on `password`, `This password is too ' +
          `common.\`: the code is not tried, nothing is sent upstream). ${ATTEMPTS} ${LIMITED} Counted per client address and per username.`,
        body: RestoreCodeBodySchema,
        response: { 202: NoBodySchema },
      },
    },
    async (request, reply) => {
      await restoreWithCode(restore, request.body);
      return reply.code(202).send();
    },
  );

  app.post(
    '/request_restore_code/',
    {
      config: { auth: 'public', mails: true },
      preValidation: limitBy(throttle, 'restore', 'email'),
      schema: {
        tags,
        operationId: 'requestRestoreLink',
        summary: 'Password restore (variant B): e-mail a link to every account with the address',
        description:
          `Always 201, no body. The link is \`{PUBLIC_URL}/users/restore-password/<code>/\`: an ` +
          'HTML page served by this service (or a front end calling `restore_password/`). ' +
          'Without `PUBLIC_URL` (development only: production requires it) the base is ' +
          '`http://HOST:PORT`; no request header (`Host`, `X-Forwarded-Host`) ever sets it. ' +
          `${NO_ENUMERATION} ${LIMITED} Counted per client address and per e-mail address.`,
        body: RequestLinkBodySchema,
        response: { 201: NoBodySchema },
      },
    },
    async (request, reply) => {
      if (!restoreOn) throw errors.restoreUnavailable();
      const { email } = request.body;
      const linkTo = (code: string) => `${base()}/users/restore-password/${code}/`;
      jobs.add('restore link e-mail', () => sendRestoreLinks(restore, email, linkTo));
      return reply.code(201).send();
    },
  );

  app.post(
    '/restore_password/',
    {
      config: { auth: 'public', upstream: 'no-token' },
      preValidation: limitBy(throttle, 'restore'),
      schema: {
        tags,
        operationId: 'restorePasswordWithLink',
        summary: 'Password restore (variant B): set a new password with the code of the link',
        description:
          '201, no body: the new password is set upstream and the code is spent (with every ' +
          'other unused code of the user); every token of the user issued before is refused ' +
          'from then on (401 `token_not_valid`; refresh 400). `password` and `repeat_password` must match (400 ' +
          'on `repeat_password`; the code is NOT spent then); `password` takes 8 to 128 ' +
          'characters and is not a common password (400 on `password`, `This password is too ' +
          'common.`; the code is not spent, nothing is sent upstream). A wrong, expired or used code is 400 on `restore_password_code`. ' +
          `${ATTEMPTS} ${LIMITED} Counted per client address.`,
        body: RestoreLinkBodySchema,
        response: { 201: NoBodySchema },
      },
    },
    async (request, reply) => {
      await restoreWithLink(restore, request.body);
      return reply.code(201).send();
    },
  );
}

/** The upstream profile of the token, which must be the caller's own. */
async function requireOwnToken(upstream: UpstreamClient, token: string, username: string) {
  const profile = await upstream.me(token);
  if (profile?.username !== username) throw errors.upstreamTokenNotValid();
  return profile;
}

/**
 * The base of e-mailed links (src/http/links.ts): PUBLIC_URL (required in production when
 * restore is on), else the configured listening address; never a request's Host or
 * X-Forwarded-Host. Read when a link is made (the port is known once listening).
 */
function publicBase(app: App): () => string {
  return () => serviceBase(app);
}
