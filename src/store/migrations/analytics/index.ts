import * as initial from './0001_initial.ts';
import * as weather from './0002_weather.ts';
import * as sessions from './0003_sessions.ts';
import * as splitLanding from './0004_split_landing.ts';
import * as orderPlatformIds from './0005_order_platform_ids.ts';
import * as expensesDedupWindow from './0006_expenses_dedup_window.ts';
import * as mergeSessions from './0011_merge_sessions.ts';
import * as orderStatusLines from './0012_order_status_lines.ts';
import * as city from './0013_city.ts';
import * as surveyResponses from './0015_survey_responses.ts';
import * as formSubmissions from './0016_form_submissions.ts';
import * as excludedTransactions from './0021_excluded_transactions.ts';
import * as sessionsByStore from './0022_sessions_by_store.ts';

export interface AnalyticsMigration {
  id: number;
  name: string;
  statements: string[];
}

/** Applied in order; an applied migration is never edited, a change is a new entry. */
export const analyticsMigrations: AnalyticsMigration[] = [
  { id: 1, name: 'initial', statements: initial.statements },
  { id: 2, name: 'weather', statements: weather.statements },
  { id: 3, name: 'sessions', statements: sessions.statements },
  { id: 4, name: 'split_landing', statements: splitLanding.statements },
  { id: 5, name: 'order_platform_ids', statements: orderPlatformIds.statements },
  { id: 6, name: 'expenses_dedup_window', statements: expensesDedupWindow.statements },
  { id: 11, name: 'merge_sessions', statements: mergeSessions.statements },
  { id: 12, name: 'order_status_lines', statements: orderStatusLines.statements },
  { id: 13, name: 'city', statements: city.statements },
  { id: 15, name: 'survey_responses', statements: surveyResponses.statements },
  { id: 16, name: 'form_submissions', statements: formSubmissions.statements },
  { id: 21, name: 'excluded_transactions', statements: excludedTransactions.statements },
  { id: 22, name: 'sessions_by_store', statements: sessionsByStore.statements },
];
