import type { App } from '../deps.js';
import { pagedRoute } from '../http/paged-route.js';
import { publicOptions } from './queries.js';
import { OptionListQuerySchema, OptionSchema } from './schemas.js';

export default async function optionsRoutes(app: App): Promise<void> {
  const { db } = app.deps.database;

  pagedRoute(app, '/options/', {
    config: { auth: 'public' },
    schema: {
      tags: ['options'],
      operationId: 'listOptions',
      summary: 'Public configuration options',
      description:
        'No token needed (one sent is ignored). Only options marked public are listed, ' +
        'for every caller, administrators included; ordered by name. `name` filters by ' +
        'exact name (an empty value does not filter).',
      querystring: OptionListQuerySchema,
    },
    item: OptionSchema,
    list: (request) => publicOptions(db, request.query.name),
  });
}
