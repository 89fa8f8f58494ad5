import * as initial from './0001_initial.ts';
import * as weather from './0002_weather.ts';

export interface AnalyticsMigration {
  id: number;
  name: string;
  statements: string[];
}

/** Applied in order; an applied migration is never edited, a change is a new entry. */
export const analyticsMigrations: AnalyticsMigration[] = [
  { id: 1, name: 'initial', statements: initial.statements },
  { id: 2, name: 'weather', statements: weather.statements },
];
