import type { App } from '../deps.js';
import { currentUser, isStaff } from '../http/auth.js';
import { errors } from '../http/errors.js';
import { isTrue } from '../http/query.js';
import { RANKING_LIMIT, ranking, weeklyScores } from './queries.js';
import {
  MonthlyScoresSchema,
  MonthQuerySchema,
  RankingQuerySchema,
  RankingSchema,
} from './schemas.js';
import { parseMonth } from './weeks.js';

const tags = ['ranking'];

const SCREEN =
  'A ranking screen makes two calls for the same month: `monthly-scores/` draws the ' +
  "caller's week-by-week bars, `monthly-scores/ranking/` the leaderboard; the caller's " +
  '`me.score` there is the sum of the weekly scores.';

export default async function scoresRoutes(app: App): Promise<void> {
  const { database, clock } = app.deps;
  const { db } = database;

  app.get(
    '/monthly-scores/',
    {
      schema: {
        tags,
        operationId: 'getMonthlyScores',
        summary: "The caller's score per week of a month",
        description:
          'One entry per Monday-started UTC week that overlaps the month (4 to 6), `week` ' +
          'numbered from 0; week 0 may begin in the month before and the last may end in the ' +
          "month after. `score`: the total quantity of items in the caller's carts whose " +
          'checkout record was created in that week and inside the month (days outside the ' +
          "month do not count); null for a week whose Monday 00:00 UTC hasn't come yet, 0 " +
          'for a started week with nothing. `month` 1-12 and `year` 1970-9999 are required; ' +
          `otherwise 400 on that field. ${SCREEN}`,
        querystring: MonthQuerySchema,
        response: { 200: MonthlyScoresSchema },
      },
    },
    async (request) =>
      weeklyScores(db, currentUser(request).id, parseMonth(request.query), clock.nowMicros()),
  );

  app.get(
    '/monthly-scores/ranking/',
    {
      schema: {
        tags,
        operationId: 'getMonthlyScoreRanking',
        summary: 'The month’s ranking of the people in your organizations',
        description:
          "Ranks the caller and every member of the caller's organizations (or, with " +
          '`organization`, of that one organization; one the caller is not a member of is ' +
          "404) by the month's total checked-out quantity, counted as in `monthly-scores/` " +
          "over all of each user's carts. Ordered by score, highest first, then username; " +
          'equal scores share a rank (1, 2, 2, 4); users with nothing checked out are ' +
          `included with 0. Not paged: \`results\` holds the first ${RANKING_LIMIT}, ` +
          "`count` says how many are ranked, and `me` is always the caller's own rank and " +
          `score. The same 400s as \`monthly-scores/\`. Staff and admins may pass ` +
          '`all_organizations=True` to rank the members of every organization (the staff ' +
          `console's dashboard); a customer who does gets 403. ${SCREEN}`,
        querystring: RankingQuerySchema,
        response: { 200: RankingSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const all = isTrue(request.query.all_organizations) === true;
      if (all && !isStaff(user)) throw errors.permissionDenied();
      return ranking(db, user.id, parseMonth(request.query), request.query.organization, all);
    },
  );
}
