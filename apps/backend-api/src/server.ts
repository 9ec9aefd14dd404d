import { createDatabase, migrateDatabase } from '@platform/db';
import { listen, loadConfigOrExit } from '@platform/http';
import { createRedisClient, logRedisAvailability } from '@platform/rate-limit';
import { buildApp } from './app.js';
import { loadBackendApiConfig } from './config.js';

// The composition root of one backend-api process, as it runs in production.
// A bad variable stops the process with one line naming it, not a stack trace.
const config = loadConfigOrExit(() => loadBackendApiConfig());
const database = await createDatabase({
  url: config.databaseUrl,
  dataDir: config.pgliteDataDir,
  maxConnections: config.databasePoolSize,
});
if (config.migrateOnStart) await migrateDatabase(database);
const redis = config.redisUrl ? createRedisClient(config.redisUrl) : undefined;

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
await listen(app, { host: config.host, port: config.port });
