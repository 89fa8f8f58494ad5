/**
 * Who a touchpoint path belongs to. Visitors that share a customer id share one path: a buyer who
 * clicked an ad on the phone and bought on the laptop after signing in is one buyer. The report,
 * a conversion's explanation, the Markov chain and the data-driven fit all group sessions and
 * conversions by this identity, so it is written once, here.
 *
 * `IDS_CTE` is the CTE `ids` (visitor -> customer id of the workspace bound as `store_id`);
 * a query that uses the expressions below defines it and LEFT JOINs it as `ids` on the visitor.
 */
export const IDS_CTE = `ids AS (
  SELECT visitor_id AS id_visitor, customer_id AS customer FROM visitor_customers FINAL WHERE store_id = {store_id:UInt64}
)`;

/** The identity of a session's visitor (`visitor`: its visitor id column), through the joined `ids`. */
export const sessionIdentitySql = (visitor: string) =>
  `if(ids.customer != '', concat('c:', ids.customer), concat('v:', toString(${visitor})))`;

/** The identity of a conversion: its own customer id first, else its visitor's, through the joined `ids`. */
export const conversionIdentitySql = (conversion: string) =>
  `multiIf(${conversion}.customer_id != '', concat('c:', ${conversion}.customer_id), ${sessionIdentitySql(`${conversion}.visitor_id`)})`;
