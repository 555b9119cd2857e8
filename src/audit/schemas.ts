import { type Static, Type } from 'typebox';
import { PageQuery } from '../http/pagination.js';
import { DateTimeQuerySchema, IntegerQuerySchema } from '../http/query.js';
import { Nullable, TimestampSchema } from '../http/schemas.js';

export const AUDIT_KINDS = [
  'control.created',
  'control.verified',
  'control.rejected',
  'store.created',
  'store.updated',
  'store.hours_updated',
  'role.granted',
  'role.revoked',
  'checkout.confirmed',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_VIA = ['api', 'random-draw', 'admin-command'] as const;
export type AuditVia = (typeof AUDIT_VIA)[number];

const Values = Nullable(
  Type.Record(Type.String(), Type.Unknown(), {
    description: 'the changed fields as they were (before) or became (after)',
  }),
);

export const AuditEventSchema = Type.Object({
  id: Type.Integer(),
  created: TimestampSchema,
  kind: Type.Union(AUDIT_KINDS.map((k) => Type.Literal(k))),
  via: Type.Union(
    AUDIT_VIA.map((v) => Type.Literal(v)),
    {
      description:
        '`api`: a person with a token (`actor`); `random-draw`: a checkout drew a control; ' +
        '`admin-command`: the admin command, run by `operator`',
    },
  ),
  actor: Nullable(
    Type.Object(
      {
        id: Type.Integer(),
        username: Type.String(),
        // Names for people-facing screens (the console, issue 32).
        first_name: Type.Optional(Type.String()),
        last_name: Type.Optional(Type.String()),
      },
      { description: 'who did it' },
    ),
  ),
  operator: Nullable(
    Type.String({ description: 'the operating-system user of the admin command' }),
  ),
  store: Nullable(Type.String({ description: 'GLN of the store concerned' })),
  user: Nullable(Type.Integer({ description: 'id of the customer concerned' })),
  customer: Type.Optional(
    Nullable(
      Type.Object(
        {
          id: Type.Integer(),
          username: Type.String(),
          first_name: Type.String(),
          last_name: Type.String(),
        },
        { description: 'the customer concerned (`user`) by name, or null' },
      ),
    ),
  ),
  object: Nullable(
    Type.Integer({
      description: 'id of the control (or, for `checkout.confirmed`, the cart) concerned',
    }),
  ),
  before: Values,
  after: Values,
});
export type AuditEvent = Static<typeof AuditEventSchema>;

export const AuditListQuerySchema = Type.Object({
  store: Type.Optional(Type.String({ description: 'GLN', maxLength: 64 })),
  actor: Type.Optional(IntegerQuerySchema),
  user: Type.Optional(IntegerQuerySchema),
  kind: Type.Optional(Type.Union(AUDIT_KINDS.map((k) => Type.Literal(k)))),
  created_after: Type.Optional(DateTimeQuerySchema),
  created_before: Type.Optional(DateTimeQuerySchema),
  ...PageQuery,
});
export type AuditListQuery = Static<typeof AuditListQuerySchema>;
