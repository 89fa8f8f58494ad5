import type { FastifyPluginAsync } from 'fastify';
import type { QuerySpec } from './params.ts';
import { eventsRoute } from './events/route.ts';
import { eventsQuery } from './events/schema.ts';
import { sessionsRoute } from './sessions/route.ts';
import { sessionsQuery } from './sessions/schema.ts';
import { conversionsRoute } from './conversions/route.ts';
import { conversionsQuery } from './conversions/schema.ts';
import { adsRoute } from './ads/route.ts';
import { adsQuery } from './ads/schema.ts';
import { reportRoute } from './report/route.ts';
import { reportQuery } from './report/schema.ts';
import { attributionRoute } from './attribution/route.ts';
import { attributionQuery } from './attribution/schema.ts';
import { reconciliationRoute } from './reconciliation/route.ts';
import { reconciliationQuery } from './reconciliation/schema.ts';
import { customersRoute } from './customers/route.ts';
import { customersQuery } from './customers/schema.ts';
import { exportRoute } from './export/route.ts';
import { ROW_EXPORTS, ROW_EXPORT_KINDS } from './export/kinds.ts';
import { mmmQuery } from './export/mmm.ts';

export const DATA_API_PREFIX = '/v3';

/** The data API's route table: every endpoint with the query parameters it reads. */
export const DATA_ENDPOINTS: readonly { path: string; route: FastifyPluginAsync; query: QuerySpec }[] = [
  { path: '/events', route: eventsRoute, query: eventsQuery },
  { path: '/sessions', route: sessionsRoute, query: sessionsQuery },
  { path: '/conversions', route: conversionsRoute, query: conversionsQuery },
  { path: '/ads', route: adsRoute, query: adsQuery },
  { path: '/report', route: reportRoute, query: reportQuery },
  { path: '/attribution', route: attributionRoute, query: attributionQuery },
  { path: '/reconciliation', route: reconciliationRoute, query: reconciliationQuery },
  { path: '/customers', route: customersRoute, query: customersQuery },
  ...ROW_EXPORT_KINDS.map((kind) => ({ path: `/export/${kind}`, route: exportRoute(kind), query: ROW_EXPORTS.get(kind)!.query })),
  { path: '/export/mmm', route: exportRoute('mmm'), query: mmmQuery },
];
