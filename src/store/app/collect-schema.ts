/** Collector tables (migration 0004_collect). Timestamps are ISO text. */
export interface CollectWebhookTable {
  workspace_id: number;
  /**
   * The HMAC key, sealed with the deployment's secret box (an HMAC can only be checked by whoever
   * holds the key, so it cannot be stored as a hash like API keys).
   */
  secret: string;
  created_at: string;
}

export interface WebhookDeliveryTable {
  workspace_id: number;
  delivery_id: string;
  received_at: string;
}

/** A shop platform connected to a workspace (migration 0005_shop_integrations). */
export interface ShopIntegrationTable {
  /** `shopify` or `woocommerce`. */
  platform: string;
  /** The shop as its webhooks name it: `name.myshopify.com`, or the WordPress site URL. */
  shop: string;
  workspace_id: number;
  /** The platform's signing secret, sealed with the deployment's secret box. */
  secret: string;
  created_at: string;
  updated_at: string;
}

export interface CollectTables {
  collect_webhooks: CollectWebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  shop_integrations: ShopIntegrationTable;
}
