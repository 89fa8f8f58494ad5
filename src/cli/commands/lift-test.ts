import { addLiftTest, listLiftTests, parseLiftTest } from '../../store/app/lift-tests.ts';
import { PIXEL_SOURCES } from '../../analytics/sources.ts';
import { trackedSourceOf } from '../../analytics/dimensions.ts';
import { CommandError, requireOption, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

/** A share from 0 to 1 as typed: plain decimal digits only, so "0x1" or "1e-1" are refused, not read. */
const shareOf = (name: string, raw: string): number => {
  if (!/^\d{1,3}(\.\d{1,12})?$/.test(raw.trim())) throw new CommandError(`--${name} must be a number from 0 to 1`);
  return Number(raw.trim());
};

/**
 * `lift-test add --workspace W --source S --start YYYY-MM-DD --end YYYY-MM-DD --incremental-share X [--interval LO,HI]`:
 * what an experiment measured for one reporting source (a raw channel names its source: facebook is meta).
 */
export const liftTestAddCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const source = trackedSourceOf(requireOption(args, 'source', 64));
  if (source === null) throw new CommandError(`--source must be a tracked channel: one of ${PIXEL_SOURCES.filter((s) => s !== 'organic').join(', ')}`);
  const interval = typeof args.options.interval === 'string' ? args.options.interval.split(',') : null;
  if (interval && interval.length !== 2) throw new CommandError('--interval must be LO,HI');
  const test = parseLiftTest({
    source,
    start_date: requireOption(args, 'start'),
    end_date: requireOption(args, 'end'),
    incremental_share: shareOf('incremental-share', requireOption(args, 'incremental-share')),
    interval: interval && [shareOf('interval', interval[0]!), shareOf('interval', interval[1]!)],
  });
  await requireWorkspace(ctx, workspaceId);
  const added = await addLiftTest(ctx.stores.db, workspaceId, test, 'cli');
  return { lift_test: { ...added, id: String(added.id) } };
};

/** `lift-test list --workspace W`: the workspace's lift tests, oldest first. */
export const liftTestListCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  await requireWorkspace(ctx, workspaceId);
  const tests = await listLiftTests(ctx.stores.db, workspaceId);
  return { lift_tests: tests.map((t) => ({ ...t, id: String(t.id) })) };
};
