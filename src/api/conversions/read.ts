import { resolveRange } from '../../kit/calendar/range.ts';
import { channelsOfAll } from '../../analytics/sources.ts';
import { pixelScope, type QueryScope, type Reader } from '../../analytics/query-scope.ts';
import type { ConversionFilters } from '../../analytics/queries/conversions/conversion-scope.ts';
import type { ConversionsFilterQuery } from './schema.ts';

/** What a conversions request reads beside its page or grouping (the export shares it); AccessDenied when the key may not. */
export function conversionsRead(reader: Reader, query: ConversionsFilterQuery): { scope: QueryScope; filters: ConversionFilters } {
  return {
    scope: pixelScope(reader, resolveRange(query), query.source),
    filters: {
      name: query.name,
      transactionId: query.transaction_id,
      customerId: query.customer_id,
      isNewCustomer: query.is_new_customer,
      // Exclusion only ever removes rows, so it needs no permission of its own.
      excluded: channelsOfAll(query.exclude_source ?? []),
    },
  };
}
