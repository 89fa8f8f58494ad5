import { createLoyaltyProgram, parseLoyaltyProgram } from '../../store/app/loyalty-programs.ts';
import { requireOption, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

/** `loyalty create --workspace W --name N --points-per-unit P --start D`. */
export const loyaltyCreateCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const rate = requireOption(args, 'points-per-unit');
  const program = parseLoyaltyProgram({
    name: requireOption(args, 'name'),
    points_per_unit: /^\d{1,6}$/.test(rate) ? Number(rate) : rate,
    start_date: requireOption(args, 'start'),
  });
  await requireWorkspace(ctx, workspaceId);
  const created = await createLoyaltyProgram(ctx.stores.db, workspaceId, program, 'cli');
  return { loyalty_program: { id: String(created.id), ...created.data } };
};
