import type { App } from '../deps.js';
import { currentUser, requireUpstreamToken } from '../http/auth.js';
import { errors } from '../http/errors.js';
import { pagedRoute } from '../http/paged-route.js';
import { isTrue } from '../http/query.js';
import { NoBodySchema } from '../http/schemas.js';
import { requireMembership, setFavorite } from './logic.js';
import { memberOrganizations } from './queries.js';
import {
  CreditAnswerSchema,
  OrganizationListQuerySchema,
  OrganizationParamsSchema,
  OrganizationSchema,
} from './schemas.js';

const tags = ['organizations'];

const FAVORITE_NOTE =
  'No body (an empty JSON body is accepted too); answers 200 with no body. Idempotent. ' +
  'An organization the user is not a member of, or an unknown one, is 404. Favourites are ' +
  "per user and survive a new login as long as upstream keeps the user's membership.";

export default async function organizationsRoutes(app: App): Promise<void> {
  const { database, upstream } = app.deps;
  const { db } = database;

  pagedRoute(app, '/organizations/', {
    schema: {
      tags,
      operationId: 'listOrganizations',
      summary: 'The organizations the user is a member of',
      description:
        'Only the memberships of the authenticated user, staff and admins included ' +
        '(memberships come from the upstream profile at login). Ordered by name, then id. ' +
        '`favorites=True`: only favourites; `favorites=False`: only the others.',
      querystring: OrganizationListQuerySchema,
    },
    item: OrganizationSchema,
    list: (request) =>
      memberOrganizations(db, currentUser(request).id, isTrue(request.query.favorites)),
  });

  for (const [action, favorite] of [
    ['favorite', true],
    ['unfavorite', false],
  ] as const) {
    app.post(
      `/organizations/:organization_id/${action}/`,
      {
        schema: {
          tags,
          operationId: favorite ? 'favoriteOrganization' : 'unfavoriteOrganization',
          summary: favorite
            ? "Add an organization to the user's favourites"
            : "Remove an organization from the user's favourites",
          description: FAVORITE_NOTE,
          params: OrganizationParamsSchema,
          response: { 200: NoBodySchema },
        },
      },
      async (request, reply) => {
        await setFavorite(db, currentUser(request).id, request.params.organization_id, favorite);
        return reply.code(200).send();
      },
    );
  }

  app.get(
    '/credit-check/:organization_id/',
    {
      config: { upstream: 'required-token' },
      schema: {
        tags,
        operationId: 'getCreditCheck',
        summary: "The user's credit status in an organization, from the upstream system",
        description:
          "Asked live from the upstream system with the caller's upstream token (header " +
          '`Authorization-Upstream`, required: 400 `upstream_token_missing`; 401 ' +
          '`upstream_token_not_valid` when upstream refuses it). An organization the user is ' +
          'not a member of (locally) is 404 without asking upstream; 404 too when upstream ' +
          'does not know it. Upstream failures: 502, 503, 504.',
        params: OrganizationParamsSchema,
        response: { 200: CreditAnswerSchema },
      },
    },
    async (request) => {
      const token = requireUpstreamToken(request);
      const organizationId = request.params.organization_id;
      await requireMembership(db, currentUser(request).id, organizationId);
      const answer = await upstream.credit({ token }, organizationId);
      if (!answer) throw errors.notFound();
      return { credit: answer.credit };
    },
  );
}
