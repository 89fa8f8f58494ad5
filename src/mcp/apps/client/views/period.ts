import { instantOf, localTime } from '../../../../ui/format.ts';

/** A range as results give it: UTC timestamps `YYYY-MM-DD HH:MM:SS`. */
export interface Period {
  start_date: string;
  end_date: string;
}

/** The calendar day of a result's UTC timestamp in the zone the result was asked in. */
export const dayOf = (utc: string, zone: string) => localTime(instantOf(utc), zone).date;
