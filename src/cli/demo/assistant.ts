/**
 * What an assistant would have done on the demo store through the tools: a labelled creative, a
 * marketing angle, tracked topics, an offer for a segment, a creator program with the four creators of the traffic and
 * a tracked AI-visibility prompt, and the draft of a post-purchase survey (survey.ts publishes it). Each goes through its tool as a tools/call does (argument
 * schema, checks, audit log as `demo`), so labels.get-labels, marketing-angles.get-angles,
 * topics.get-topics, offers.get-offers, creators.get-programs and ai-visibility.get-results
 * answer from the first start. Returns the survey's id.
 */
import type { Stores } from '../../store/index.ts';
import { visibilityOf } from '../../analytics/permissions.ts';
import { findTool } from '../../mcp/tools/index.ts';
import type { ToolContext } from '../../mcp/tools/kit/tool.ts';
import { formatDay } from '../../kit/calendar/days.ts';
import { getSettings } from '../../store/app/workspaces.ts';
import { CREATORS } from './catalog.ts';

const DAY_MS = 86_400_000;
const ADMIN = ['admin:admin'];

type Call = (name: string, args: Record<string, unknown>) => Promise<any>;

function toolCaller(stores: Stores, workspaceId: number, timeZone: string, nowMs: number): Call {
  const ctx: ToolContext = {
    db: stores.db,
    ch: stores.ch,
    results: stores.results,
    workspaceId,
    scopes: ADMIN,
    visibility: visibilityOf(ADMIN),
    actor: 'demo',
    now: () => nowMs,
    timeZone,
    workspaces: [],
    signDownload: () => {
      throw new Error('the demo signs no download links');
    },
    assistantConfigured: false,
  };
  return async (name, args) => {
    const tool = findTool(name);
    if (!tool) throw new Error(`demo: no tool ${name}`);
    return tool.run(ctx, tool.input.parse(args));
  };
}

export async function seedDemoAssistantWork(stores: Stores, workspaceId: number, nowMs: number): Promise<number> {
  const call = toolCaller(stores, workspaceId, (await getSettings(stores.db, workspaceId)).timezone, nowMs);
  const range = { date_from: formatDay(nowMs - 6 * DAY_MS), date_to: formatDay(nowMs) };
  const { assets } = await call('library.get-assets', { ...range, sort_by: 'revenue', limit: 1 });
  if (assets[0]) await call('labels.label-asset', { asset_id: assets[0].asset_id, labels: ['best seller', 'product shot'] });
  await call('marketing-angles.create', {
    title: 'Built for bad weather', summary: 'Rain jackets and boots that keep a commute dry.', tags: ['outerwear'],
  });
  await call('topics.add', { keywords: ['rain jacket', 'waterproof boots', 'merino socks'] });
  const { segments } = await call('segments.get-segments', {});
  const repeat = segments.find((s: { name: string }) => s.name === 'Repeat buyers');
  await call('offers.create', { name: 'Thank-you 10 %', type: 'percentage_discount', config: { value: 10 }, target_segment_id: repeat?.id });
  const { program } = await call('creators.create-program', { name: 'Creators 10 %', commission: { type: 'percentage', rate_percent: 10 } });
  for (const creator of CREATORS) await call('creators.create', { name: creator.name, program_id: program.id, instagram_handle: `@${creator.handle}` });
  await call('ai-visibility.create-prompt', { prompt: 'Which brand makes the best rain jacket for city commuting?', competitors: ['Rains', 'Patagonia'] });
  const { survey } = await call('surveys.create', {
    title: 'How did you hear about us?',
    questions: [
      { text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Google', 'A friend', 'A podcast'] },
      { text: 'How likely are you to recommend us to a friend?', type: 'nps' },
    ],
  });
  return Number(survey.id);
}
