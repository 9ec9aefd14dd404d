import { createDatabase, migrateDatabase } from '@platform/db';
import { listen } from '@platform/http';
import { createRedisClient, logRedisAvailability } from '@platform/rate-limit';
import { buildApp } from './app.js';
import { loadBackendApiConfig } from './config.js';

// The composition root of one backend-api process, as it runs in production.
const config = loadBackendApiConfig();
const database = await createDatabase({ url: config.DATABASE_URL, dataDir: config.PGLITE_DATA_DIR });
if (config.MIGRATE_ON_START) await migrateDatabase(database);
const redis = config.REDIS_URL ? createRedisClient(config.REDIS_URL) : undefined;

const app = buildApp({ database, redis }, config);
app.addHook('onClose', async () => {
  redis?.disconnect();
  await database.close();
});
if (redis) {
  logRedisAvailability(redis, app.log);
  // Not fatal: requests are served without rate limits until Redis answers, and /readyz reports it meanwhile.
  await redis.connect().catch(() => undefined);
}
await listen(app, { host: config.HOST, port: config.PORT });
