import type { Migration } from 'kysely';
import * as initial from './0001_initial.ts';
import * as collect from './0004_collect.ts';

/** Keyed by name; Kysely applies them in name order. */
export const appMigrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0004_collect': collect,
};
