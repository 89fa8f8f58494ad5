import { z } from 'zod';
import { countObjects, listObjects, updateObject } from '../../../store/app/tool-objects.ts';
import { Conflict, NotFound } from '../../../kit/errors.ts';
import { LIST_COLUMN_KIND, LIST_ITEM_KIND, LIST_KIND, MAX_ITEMS_PER_LIST } from '../../../store/app/lists-and-notes.ts';
import { audit, countVisible, createAudited, listPresented, present, requireObject } from '../kit/objects.ts';
import { readScopeOf } from '../../../analytics/permissions.ts';
import { RANK_BY, topCreatives } from './library.ts';
import { rangeOut, toolRange } from '../kit/range.ts';
import { DAY, InvalidRequest, rangeArgs, idArg, limitArg, offsetArg, readTool, shortText, writeTool, type ToolContext } from '../kit/tool.ts';
import { parseBound } from '../../../kit/calendar/days.ts';
import * as out from '../kit/outputs.ts';

const LIST = LIST_KIND;
const COLUMN = LIST_COLUMN_KIND;
const ITEM = LIST_ITEM_KIND;
const COLUMN_TYPES = ['text', 'number', 'date', 'url', 'checkbox', 'select', 'creative'] as const;
const ITEMS_OUT = z.strictObject({ items: out.storedList });

type List = { name: string; kind: 'list' | 'whiteboard'; folder: string };
type Column = { name: string; type: string; options?: string[] };
type Item = { values: Record<string, unknown>; linked?: Record<string, unknown> };

const cellValue = z.union([z.string().max(5000), z.number(), z.boolean(), z.null()]);
const valuesArg = z
  .record(z.string().min(1).max(100), cellValue)
  .refine((v) => Object.keys(v).length <= 100, { error: 'At most 100 values per item' })
  .describe('Keyed by column name');

async function columnsOf(ctx: ToolContext, listId: number): Promise<Column[]> {
  return (await listObjects<Column>(ctx.db, ctx.workspaceId, COLUMN, { parentId: listId })).map((c) => c.data);
}

/** What a cell of each column type holds (null empties any cell); a problem in words, or null. */
function cellProblem(column: Column, value: unknown): string | null {
  if (value === null) return null;
  switch (column.type) {
    case 'number':
      return typeof value === 'number' ? null : 'a number';
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'date':
      return typeof value === 'string' && DAY.test(value) && parseBound(value, 'start') !== null ? null : 'a calendar day YYYY-MM-DD';
    case 'url':
      return typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value) ? null : 'an http(s) URL';
    case 'select':
      return typeof value === 'string' && (column.options ?? []).includes(value) ? null : `one of ${(column.options ?? []).join(', ')}`;
    default:
      return typeof value === 'string' ? null : 'a text';
  }
}

function checkColumns(columns: Column[], values: Record<string, unknown>): void {
  const byName = new Map(columns.map((c) => [c.name, c]));
  const unknown = Object.keys(values).filter((k) => !byName.has(k));
  if (unknown.length) {
    throw new InvalidRequest(`Unknown column(s): ${unknown.join(', ')}. Columns of this list: ${[...byName.keys()].join(', ') || '(none)'}`);
  }
  for (const [name, value] of Object.entries(values)) {
    const problem = cellProblem(byName.get(name)!, value);
    if (problem) throw new InvalidRequest(`Column ${name} (${byName.get(name)!.type}) takes ${problem}, not ${JSON.stringify(value)}`);
  }
}

/** The list, once every item's values name only its columns. */
async function listTaking(ctx: ToolContext, listId: string, items: { values: Record<string, unknown> }[]) {
  const list = await requireObject<List>(ctx, LIST, listId, 'List');
  const columns = await columnsOf(ctx, list.id);
  for (const item of items) checkColumns(columns, item.values);
  return list;
}

async function checkRoom(ctx: ToolContext, listId: number, adding: number): Promise<void> {
  const count = await countObjects(ctx.db, ctx.workspaceId, ITEM, listId);
  if (count + adding > MAX_ITEMS_PER_LIST) throw new InvalidRequest(`A list holds at most ${MAX_ITEMS_PER_LIST} items`);
}

export const listTools = [
  readTool(
    'lists.get-lists',
    'Get lists and whiteboards',
    'The lists and whiteboards; with list_id, that list with its columns and a page of its items.',
    'Lists made with the lists tools and filled by them and by workflows; a key reads only the rows within its channels (docs/mcp.md, "Who may do what").',
    z.object({ list_id: idArg('list').optional(), limit: limitArg, offset: offsetArg }).strict(),
    z.strictObject({ lists: out.storedList, list: out.stored, columns: out.storedList, items: out.storedList, total_items: out.num }).partial(),
    async (ctx, { list_id, ...page }) => {
      if (!list_id) return { lists: await listPresented(ctx, LIST, page) };
      const list = await requireObject<List>(ctx, LIST, list_id, 'List');
      return {
        list: present(list),
        columns: await listPresented(ctx, COLUMN, { limit: 500, offset: 0 }, list.id),
        items: await listPresented(ctx, ITEM, page, list.id),
        total_items: await countVisible(ctx, ITEM, list.id),
      };
    },
  ),
  writeTool(
    'lists.create',
    'Create a list',
    'Creates an empty list (rows and columns) or whiteboard.',
    'Stored in the workspace.',
    z
      .object({
        name: shortText('Name of the list'),
        kind: z.enum(['list', 'whiteboard']).describe('list: rows and columns'),
        folder: z.string().trim().max(200).optional().describe('Folder to file it under'),
      })
      .strict(),
    z.strictObject({ list: out.stored }),
    async (ctx, input) => {
      const list = await createAudited<List>(ctx, 'lists.create', LIST, { name: input.name, kind: input.kind, folder: input.folder ?? '' });
      return { list: { id: String(list.id), name: list.data.name, kind: list.data.kind, folder: list.data.folder } };
    },
  ),
  writeTool(
    'lists.add-column',
    'Add a list column',
    'Adds a column to a list; column names are unique per list.',
    'Stored in the workspace.',
    z
      .object({
        list_id: idArg('list'),
        name: shortText('Column name', 100),
        type: z.enum(COLUMN_TYPES).default('text').describe('Column type'),
        options: z.array(z.string().trim().min(1).max(100)).min(1).max(50).optional().describe('Choices; select only'),
      })
      .strict()
      .superRefine((column, ctx) => {
        if (column.type === 'select' && !column.options) ctx.addIssue({ code: 'custom', path: ['options'], message: 'a select column needs options' });
        if (column.type !== 'select' && column.options) ctx.addIssue({ code: 'custom', path: ['options'], message: `a ${column.type} column takes no options` });
        if (column.options && new Set(column.options).size !== column.options.length) ctx.addIssue({ code: 'custom', path: ['options'], message: 'options must differ' });
      }),
    z.strictObject({ column: out.stored }),
    async (ctx, input) => {
      const list = await requireObject<List>(ctx, LIST, input.list_id, 'List');
      const columns = await columnsOf(ctx, list.id);
      if (columns.some((c) => c.name === input.name)) throw new Conflict(`List ${input.list_id} already has a column ${input.name}`);
      if (columns.length >= 100) throw new InvalidRequest('A list has at most 100 columns');
      const column = await createAudited<Column>(ctx, 'lists.add-column', COLUMN, { name: input.name, type: input.type, ...(input.options ? { options: input.options } : {}) }, { parentId: list.id });
      return { column: present(column) };
    },
  ),
  writeTool(
    'lists.add-items',
    'Add list items',
    'Appends items to a list, with values for its existing columns.',
    'Stored in the workspace.',
    z
      .object({
        list_id: idArg('list'),
        items: z.array(z.object({ values: valuesArg }).strict()).min(1).max(200).describe('Items to add'),
      })
      .strict(),
    ITEMS_OUT,
    async (ctx, input) => {
      const list = await listTaking(ctx, input.list_id, input.items);
      await checkRoom(ctx, list.id, input.items.length);
      const items = [];
      for (const item of input.items) items.push(present(await createAudited<Item>(ctx, 'lists.add-items', ITEM, { values: item.values }, { parentId: list.id })));
      return { items };
    },
  ),
  writeTool(
    'lists.update-items',
    'Update list items',
    'Changes cell values of items of a list; values not named stay.',
    'Stored in the workspace.',
    z
      .object({
        list_id: idArg('list'),
        items: z.array(z.object({ id: idArg('item'), values: valuesArg }).strict()).min(1).max(200).describe('Items to change'),
      })
      .strict(),
    ITEMS_OUT,
    async (ctx, input) => {
      const list = await listTaking(ctx, input.list_id, input.items);
      const current = [];
      for (const item of input.items) {
        const found = await requireObject<Item>(ctx, ITEM, item.id, 'Item');
        if (found.parentId !== list.id) throw new NotFound(`Item ${item.id} not found in list ${input.list_id}`);
        current.push(found);
      }
      const items = [];
      for (const [i, item] of input.items.entries()) {
        const values = { ...current[i]!.data.values, ...item.values };
        const updated = await updateObject<Item>(ctx.db, ctx.workspaceId, ITEM, Number(item.id), { values }, readScopeOf(ctx.visibility));
        await audit(ctx, 'lists.update-items', `${ITEM}:${item.id}`, { changed: item.values });
        items.push(present(updated!));
      }
      return { items };
    },
  ),
  writeTool(
    'lists.add-top-creatives',
    'Add top creatives to a list',
    'Adds the range\'s top creatives by rank_by (as library.get-assets) to a list as linked rows, adding missing columns.',
    'Ads from ad rows ranked as library.get-assets ranks them.',
    z
      .object({
        list_id: idArg('list'),
        rank_by: z.enum(RANK_BY).describe('Ranking measure'),
        count: z.number().int().min(1).max(50).default(10).describe('Creatives to add'),
        ...rangeArgs,
      })
      .strict(),
    z.strictObject({ ...out.range, attribution: out.open, items: out.storedList }),
    async (ctx, input) => {
      const list = await requireObject<List>(ctx, LIST, input.list_id, 'List');
      const { creatives, attribution, range } = await topCreatives(ctx, input, { rankBy: input.rank_by, limit: input.count, offset: 0 });
      await checkRoom(ctx, list.id, creatives.length);
      const wanted: Column[] = [
        { name: 'creative', type: 'creative' },
        { name: 'source', type: 'text' },
        { name: input.rank_by, type: 'number' },
      ];
      const existing = new Set((await columnsOf(ctx, list.id)).map((c) => c.name));
      for (const column of wanted.filter((c) => !existing.has(c.name))) {
        await createAudited<Column>(ctx, 'lists.add-top-creatives', COLUMN, column, { parentId: list.id });
      }
      const items = [];
      for (const [rank, creative] of creatives.entries()) {
        const item = await createAudited<Item>(
          ctx,
          'lists.add-top-creatives',
          ITEM,
          {
            values: { creative: creative.ad_name || creative.asset_id, source: creative.source, [input.rank_by]: creative[input.rank_by] },
            linked: { type: 'creative', asset_id: creative.asset_id, rank: rank + 1, rank_by: input.rank_by, ...rangeOut(range), attribution },
          },
          // The row's numbers are its ad platform's alone.
          { parentId: list.id, scope: { channels: [creative.source], profit: false } },
        );
        items.push({ ...present(item), creative });
      }
      return { items, attribution, ...rangeOut(range) };
    },
  ),
];
