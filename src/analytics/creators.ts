/**
 * Creators as creators.get-creators and the dashboard's creators view show them (docs/families.md,
 * "Creators"): every code the traffic carries and every stored creator's tracking code, with the
 * sessions, orders and revenue (workspace currency) of the range, busiest first.
 */
import { AccessDenied } from '../kit/errors.ts';
import { money } from '../kit/numbers.ts';
import type { Range } from '../kit/range.ts';
import type { AppDatabase } from '../store/app-db.ts';
import type { Clickhouse } from '../store/clickhouse.ts';
import { listObjects, MAX_OBJECTS_PER_KIND, type ToolObject } from '../store/app/tool-objects.ts';
import { seesChannel, type Visibility } from './permissions.ts';
import { creatorPerformance } from './queries/creators/creator-performance.ts';

export const CREATOR_KIND = 'creator';
export const CREATOR_PROGRAM_KIND = 'creator_program';
export const NO_CREATOR_ACCESS = 'You do not have access to creators: they need a key that reads the creator channel (read:creators or admin:admin)';

export interface StoredCreator {
  name: string;
  tracking_code: string;
  program_id: string;
  active: boolean;
}

export interface CreatorInTraffic {
  code: string;
  creator: ToolObject<StoredCreator> | null;
  sessions: number;
  orders: number;
  revenue: number;
  coupon_codes: string[];
}

export async function creatorsInTraffic(
  stores: { db: AppDatabase; ch: Clickhouse },
  reader: { workspaceId: number; visibility: Visibility },
  range: Range,
): Promise<CreatorInTraffic[]> {
  if (!seesChannel(reader.visibility, 'creator')) throw new AccessDenied(NO_CREATOR_ACCESS);
  const stored = await listObjects<StoredCreator>(stores.db, reader.workspaceId, CREATOR_KIND, { limit: MAX_OBJECTS_PER_KIND, offset: 0 });
  const byCode = new Map(stored.map((c) => [c.data.tracking_code.toUpperCase(), c]));
  const rows = await creatorPerformance(stores.ch, { workspaceId: reader.workspaceId, range, known: [...byCode.keys()] });
  return rows.map((row) => ({
    code: row.code,
    creator: byCode.get(row.code) ?? null,
    sessions: Number(row.sessions),
    orders: Number(row.orders),
    revenue: money(Number(row.revenue_cents)),
    coupon_codes: row.coupon_codes,
  }));
}
