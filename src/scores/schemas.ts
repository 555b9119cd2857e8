import { type Static, Type } from 'typebox';
import { BoolQuerySchema } from '../http/query.js';
import { Nullable } from '../http/schemas.js';

const IntegerText = (description: string) =>
  Type.String({
    pattern: '^-?[0-9]{1,9}$',
    errorMessage: 'A valid integer is required.',
    description,
  });

export const MonthQuerySchema = Type.Object({
  month: IntegerText('1-12'),
  year: IntegerText('1970-9999'),
});
export type MonthQuery = Static<typeof MonthQuerySchema>;

export const RankingQuerySchema = Type.Object({
  ...MonthQuerySchema.properties,
  organization: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'organization_id of one of your organizations; omitted: all of them',
    }),
  ),
  all_organizations: Type.Optional({
    ...BoolQuerySchema,
    description:
      'Staff and admins: True ranks the members of every organization (`organization` is ' +
      'then ignored); a customer gets 403',
  }),
});

export const MonthlyScoresSchema = Type.Array(
  Type.Object({
    week: Type.Integer({ description: 'From 0: the week holding the 1st of the month' }),
    score: Nullable(Type.Integer({ description: 'null: the week has not started yet' })),
  }),
);
export type MonthlyScores = Static<typeof MonthlyScoresSchema>;

const ScoreSchema = Type.Integer({
  description: 'Items checked out in the month: the sum of the weekly scores',
});

export const RankingSchema = Type.Object({
  month: Type.Integer(),
  year: Type.Integer(),
  count: Type.Integer({ description: 'Users ranked (results holds at most 100 of them)' }),
  results: Type.Array(
    Type.Object({
      rank: Type.Integer({ description: 'Equal scores share a rank: 1, 2, 2, 4' }),
      user: Type.Object({
        id: Type.Integer(),
        first_name: Type.String(),
        last_name: Type.String(),
        username: Type.String(),
      }),
      score: ScoreSchema,
    }),
  ),
  me: Type.Object(
    { rank: Type.Integer(), score: ScoreSchema },
    { description: "The caller's own place, also when outside the first 100" },
  ),
});
export type Ranking = Static<typeof RankingSchema>;
