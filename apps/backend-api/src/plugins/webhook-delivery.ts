import type { Database } from '@platform/db';
import { createWebhookDelivery, type WebhookDelivery } from '@platform/webhooks';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** The callback delivery worker of this instance; tests call `runOnce()` on it with a moved clock. */
    webhookDelivery: WebhookDelivery;
  }
}

export interface WebhookDeliveryPluginOptions {
  db: Database;
  now: () => Date;
  /** Poll for due events once the app is ready; off, nothing is sent unless `runOnce()` is called. */
  enabled: boolean;
  allowPrivateTargets: boolean;
  intervalMs: number;
  batchSize: number;
}

/**
 * Sends the outbox's events to customers (docs/decisions.md#delivery-across-instances). Every instance may run it:
 * claims use `FOR UPDATE SKIP LOCKED`, so instances share the work without sending one try twice. Stopped when the app
 * closes, before the database is.
 */
export const webhookDelivery = fp<WebhookDeliveryPluginOptions>(
  async (app, options) => {
    const delivery = createWebhookDelivery({
      db: options.db,
      now: options.now,
      allowPrivateTargets: options.allowPrivateTargets,
      intervalMs: options.intervalMs,
      batchSize: options.batchSize,
      logger: app.log,
    });
    app.decorate('webhookDelivery', delivery);
    if (options.enabled) app.addHook('onReady', async () => delivery.start());
    app.addHook('onClose', async () => delivery.stop());
  },
  { name: 'webhook-delivery' },
);
