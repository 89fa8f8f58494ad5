import { createGeoTest, parseGeoTest } from '../../store/app/geo-tests.ts';
import { CommandError, requireOption, workspaceOption, type Command } from '../command.ts';
import { trackedSourceOf } from '../../analytics/dimensions.ts';
import { requireWorkspace } from './workspace.ts';

const list = (value: string) => value.split(',').map((v) => v.trim()).filter(Boolean);

/**
 * `geo-test create --workspace W --name N --treatment DE,AT --control FR,NL --start D --end D [--level city] [--pre-days N]
 * [--source S]`: with a source (the channel the treatment regions ran and the control regions did not), the finished
 * test calibrates data_driven.
 */
export const geoTestCreateCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const preDays = args.options['pre-days'];
  const named = args.options.source;
  const source = typeof named === 'string' ? trackedSourceOf(named) : undefined;
  if (source === null) throw new CommandError('--source must be a tracked channel, e.g. meta or google');
  const test = parseGeoTest({
    name: requireOption(args, 'name'),
    level: typeof args.options.level === 'string' ? args.options.level : 'country',
    treatment: list(requireOption(args, 'treatment')),
    control: list(requireOption(args, 'control')),
    start_date: requireOption(args, 'start'),
    end_date: requireOption(args, 'end'),
    ...(typeof preDays === 'string' ? { pre_days: /^\d{1,4}$/.test(preDays) ? Number(preDays) : preDays } : {}),
    ...(source ? { source } : {}),
  });
  await requireWorkspace(ctx, workspaceId);
  const created = await createGeoTest(ctx.stores.db, workspaceId, test, 'cli');
  return { geo_test: { id: String(created.id), ...created.data } };
};
