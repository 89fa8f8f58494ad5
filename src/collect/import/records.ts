/** What every import reader yields: a record with its file line, or the line's problem. */
export type SourceRecord = { line: number; value: Record<string, unknown> } | { line: number; error: string };

import { InvalidInput } from '../../kit/errors.ts';

/** The whole file is refused (unknown layout, missing columns, another currency): nothing is imported. */
export class ImportRefused extends InvalidInput {}
