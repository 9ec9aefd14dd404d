import { type BackendApp, buildApp, loadBackendApiConfig } from '@platform/backend-api';
import { createDatabase, type DatabaseHandle } from '@platform/db';
import { createRedisClient } from '@platform/rate-limit';

/** One backend-api instance as server.ts builds it, with its own pool and Redis connection. */
export interface BackendInstance {
  app: BackendApp;
  database: DatabaseHandle;
  /**
   * Ends the instance as a killed process ends: nothing more is written. Its connections should already be
   * gone (cut at the proxy); what is left is torn down without waiting for work in flight.
   */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export interface BackendInstanceOptions {
  databaseUrl: string;
  redisUrl: string;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
}

const KILL_WAIT_MS = 2_000;

export async function startBackendInstance(options: BackendInstanceOptions): Promise<BackendInstance> {
  const database = await createDatabase({ url: options.databaseUrl, maxConnections: 2 });
  const redis = createRedisClient(options.redisUrl);
  await redis.connect().catch(() => undefined);
  const app = buildApp(
    { database, redis, ...(options.now === undefined ? {} : { now: options.now }) },
    loadBackendApiConfig({
      LOG_LEVEL: 'silent',
      IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
      VERIFICATION_EXPIRY_INTERVAL_MS: '0',
      VERIFICATION_RETENTION_INTERVAL_MS: '0',
      WEBHOOK_DELIVERY_ENABLED: 'false',
      ...options.env,
    }),
  );
  await app.ready();
  const close = async () => {
    await app.close();
    redis.disconnect();
    await database.close();
  };
  return {
    app,
    database,
    close,
    async kill() {
      redis.disconnect();
      // A dead process does not finish its requests: give up on a graceful close after a moment.
      await Promise.race([close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, KILL_WAIT_MS))]);
    },
  };
}
