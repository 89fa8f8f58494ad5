/**
 * Arguments for a call of every tool, in an order where each call finds what it needs (a list
 * before its items, a segment before an offer). `ids` collects the ids earlier results returned.
 * Used by output-schemas.test.ts; the tools run on the demo shop's data for the last 14 days.
 */
export interface PlannedCall {
  name: string;
  args(ids: Record<string, string>): Record<string, unknown>;
  /** Stores an id from the result for later calls. */
  keep?(result: any, ids: Record<string, string>): void;
}

const call = (name: string, args: PlannedCall['args'] = () => ({}), keep?: PlannedCall['keep']): PlannedCall => ({ name, args, keep });

export function everyToolPlan(range: { date_from: string; date_to: string }): PlannedCall[] {
  return [
    call('metadata.list_schema'),
    call('analytics.query', () => ({ breakdown: 'campaign', interval: 'week', metrics: ['spend', 'revenue', 'roas', 'net_profit'], filters: range, compare_to: 'previous_period', sort_by: 'roas' })),
    call('analytics.profit-summary', () => ({ interval: 'day', filters: range })),
    call('products.get-sales', () => ({ ...range, source: ['paid_social'], limit: 5 })),
    call('attribution.get-data', () => ({ models: ['linear', 'first_click'], filters: range })),
    // The newest conversions may be leads, which carry no transaction id: explain the newest sale.
    call('conversions.get-recent', () => ({ limit: 10, with_path: true }), (r, ids) => (ids.transaction = r.conversions.find((c: { transaction_id: string }) => c.transaction_id).transaction_id)),
    call('attribution.explain', (ids) => ({ transaction_id: ids.transaction })),
    call('journeys.get-data', () => ({ ...range, limit: 5 })),
    call('correlations.get-data', () => ({ ...range, include_series: true })),
    call('budget.compare-channels', () => range),
    call('hourly.get-data', () => range),
    call('map.get-data', () => ({ ...range, level: 'city', limit: 5 })),
    call('weather.get-data', () => range),
    call('ad-fatigue.get-scores', () => ({ ...range, min_days: 3, limit: 5 })),
    call('geo-testing.get-tests'),
    call('geo-testing.get-candidates', () => ({ ...range, min_conversions: 1, limit: 5 })),
    call('ab-testing.get-tests', () => range),
    call('ab-testing.get-results', () => ({ test_id: 'hero', ...range })),
    call('health-center.get-summary', () => range),
    call('reconciliation.get-data', () => range),
    call('customers.get-ltv', () => ({ ...range, breakdown: 'cohort_month' })),
    call('loyalty.get-programs'),
    call('loyalty.get-analytics', () => range),
    call('library.get-assets', () => ({ ...range, sort_by: 'revenue', limit: 5 }), (r, ids) => (ids.asset = r.assets[0].asset_id)),
    call('labels.label-asset', (ids) => ({ asset_id: ids.asset, labels: ['ugc'] })),
    call('labels.get-labels'),
    call('lists.create', () => ({ name: 'Hooks', kind: 'list', folder: 'Research' }), (r, ids) => (ids.list = r.list.id)),
    call('lists.add-column', (ids) => ({ list_id: ids.list, name: 'score', type: 'number' })),
    call('lists.add-items', (ids) => ({ list_id: ids.list, items: [{ values: { score: 3 } }] }), (r, ids) => (ids.item = r.items[0].id)),
    call('lists.update-items', (ids) => ({ list_id: ids.list, items: [{ id: ids.item, values: { score: 5 } }] })),
    call('lists.add-top-creatives', (ids) => ({ list_id: ids.list, rank_by: 'roas', count: 2, ...range })),
    call('lists.get-lists', (ids) => ({ list_id: ids.list })),
    call('notes.save-note', () => ({ title: 'ROAS dip', content: 'Meta fell on Monday' }), (r, ids) => (ids.note = r.note.id)),
    call('notes.update', (ids) => ({ id: ids.note, content: 'Recovered' })),
    call('notes.get-notes'),
    call('segments.create', () => ({ name: 'VIP', rules: [{ field: 'orders_count', operator: 'greater_than', value: 3 }] }), (r, ids) => (ids.segment = r.segment.id)),
    call('segments.update', (ids) => ({ id: ids.segment, description: 'Loyal buyers' })),
    call('segments.get-segments'),
    call('marketing-angles.create', () => ({ title: 'Warm feet', summary: 'Merino', tags: ['winter'] }), (r, ids) => (ids.angle = r.angle.id)),
    call('marketing-angles.update', (ids) => ({ id: ids.angle, status: 'testing' })),
    call('marketing-angles.get-angles'),
    call('topics.add', () => ({ keywords: ['merino socks'] })),
    call('topics.get-topics'),
    call('surveys.create', () => ({ title: 'Post purchase', questions: [{ text: 'Where did you hear of us?', type: 'single_choice', options: ['Friend', 'Ad'] }] }), (r, ids) => (ids.survey = r.survey.id)),
    call('surveys.get-responses', (ids) => ({ survey_id: ids.survey })),
    call('surveys.get-attribution-agreement', (ids) => ({ survey_id: ids.survey, ...range })),
    call('forms.get-forms', () => ({}), (r, ids) => (ids.form = r.forms[0].id)),
    call('forms.add-fields', (ids) => ({ form_id: ids.form, fields: [{ label: 'Email', type: 'email', required: true }] })),
    call('offers.create', (ids) => ({ name: 'Winter 10', type: 'percentage_discount', config: { value: 10 }, target_segment_id: ids.segment }), (r, ids) => (ids.offer = r.offer.id)),
    call('offers.update', (ids) => ({ id: ids.offer, status: 'scheduled', start_date: '2026-12-01' })),
    call('offers.get-offers'),
    call('offers.get-opportunities', () => range),
    call('creators.create-program', () => ({ name: 'Standard', commission: { type: 'percentage', rate_percent: 10 } }), (r, ids) => (ids.program = r.program.id)),
    call('creators.get-programs'),
    call('creators.create', (ids) => ({ name: 'Ana', program_id: ids.program, instagram_handle: '@ana' }), (r, ids) => (ids.creator = r.creator.id)),
    call('creators.update', (ids) => ({ id: ids.creator, active: false })),
    call('creators.get-creators'),
    call('ai-visibility.create-prompt', () => ({ prompt: 'best merino socks', competitors: ['Darn Tough'] })),
    call('ai-visibility.get-results'),
    call('dashboards.create-report', () => ({ name: 'Meta weekly', metrics: ['spend', 'roas'], breakdown: 'campaign', interval: 'week' })),
    call('dashboards.get-dashboards'),
    call('exports.get-link', () => ({ kind: 'conversions', ...range })),
    call('workflows.create', () => ({ name: 'Fatigue alert', trigger: { type: 'ad_fatigue' }, actions: [{ type: 'save_note' }] }), (r, ids) => (ids.workflow = r.workflow.id)),
    call('workflows.get-rules'),
    call('workflows.get-executions', (ids) => ({ workflow_id: ids.workflow })),
    call('audit-log.get-log', () => ({ limit: 5 })),
  ];
}
