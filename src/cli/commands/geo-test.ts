import { createGeoTest, parseGeoTest } from '../../store/app/geo-tests.ts';
import { requireOption, workspaceOption, type Command } from '../command.ts';
import { requireWorkspace } from './workspace.ts';

const list = (value: string) => value.split(',').map((v) => v.trim()).filter(Boolean);

/** `geo-test create --workspace W --name N --treatment DE,AT --control FR,NL --start D --end D [--level city] [--pre-days N]`. */
export const geoTestCreateCommand: Command = async (ctx, args) => {
  const workspaceId = workspaceOption(args);
  const preDays = args.options['pre-days'];
  const test = parseGeoTest({
    name: requireOption(args, 'name'),
    level: typeof args.options.level === 'string' ? args.options.level : 'country',
    treatment: list(requireOption(args, 'treatment')),
    control: list(requireOption(args, 'control')),
    start_date: requireOption(args, 'start'),
    end_date: requireOption(args, 'end'),
    ...(typeof preDays === 'string' ? { pre_days: /^\d{1,4}$/.test(preDays) ? Number(preDays) : preDays } : {}),
  });
  await requireWorkspace(ctx, workspaceId);
  const created = await createGeoTest(ctx.stores.db, workspaceId, test, 'cli');
  return { geo_test: { id: String(created.id), ...created.data } };
};
