import { z } from 'zod';
import { readTool } from '../kit/tool.ts';
import * as out from '../kit/outputs.ts';

/** Only on multi-workspace (OAuth) connections: the workspaces the person connected. */
export const workspacesListTool = readTool(
  'workspaces_list',
  'List connected workspaces',
  'Workspaces of this connection; pass an id as workspace_id to every other tool.',
  'The workspaces the person added on the OAuth consent page.',
  z.object({}).strict(),
  z.strictObject({ workspaces: out.list({ id: out.str, name: out.str }) }),
  async (ctx) => ({ workspaces: ctx.workspaces.map((w) => ({ id: String(w.id), name: w.name })) }),
);
