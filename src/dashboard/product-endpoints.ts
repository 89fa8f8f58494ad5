/** The Products view's endpoint. */
import type { FastifyInstance } from 'fastify';
import { runProductSales } from '../analytics/product-sales.ts';
import { viewRequest } from './view-request.ts';

export async function productRoutes(app: FastifyInstance): Promise<void> {
  /** Products: what sold in the range, per product and the source the report credits; the report's filters. */
  app.get('/dashboard/api/products', async (request) => {
    const { access, query, range } = viewRequest(request);
    const { source, exclude_source, campaign, attribution_model, attribution_window, attribution_date, limit, offset } = query;
    return runProductSales(app.stores, access, range, {
      source, exclude_source, campaign, attribution_model, attribution_window, attribution_date, limit: limit ?? 100, offset,
    });
  });
}
