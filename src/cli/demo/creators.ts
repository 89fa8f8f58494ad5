/**
 * What the store owner does with the creators the assistant stored (docs/families.md, "Creators"):
 * links each to the code its links and coupons carry in the demo traffic (MAYA, MAYA15, ...) and
 * applies their program, so creators.get-creators shows each creator's orders and commission.
 */
import type { Stores } from '../../store/index.ts';
import { listCreators, linkCreatorCode } from '../../store/app/creators.ts';
import { applyCreatorProgram } from '../../store/app/creator-programs.ts';
import { CREATORS } from './catalog.ts';

export async function seedDemoCreatorCodes(stores: Stores, workspaceId: number): Promise<void> {
  const programs = new Set<string>();
  for (const creator of await listCreators(stores.db, workspaceId)) {
    const traffic = CREATORS.find((c) => c.name === creator.data.name);
    if (!traffic) continue;
    await linkCreatorCode(stores.db, workspaceId, creator.id, traffic.code, 'demo');
    if (creator.data.program_id) programs.add(creator.data.program_id);
  }
  for (const id of programs) await applyCreatorProgram(stores.db, workspaceId, Number(id), 'demo');
}
