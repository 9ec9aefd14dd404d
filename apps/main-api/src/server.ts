// The composition root: reads config, opens the database, Redis and storage, builds the app and listens.
import { createDatabase, migrateDatabase } from '@platform/db';
import { listen, loadConfigOrExit } from '@platform/http';
import { createRedisClient, logRedisAvailability } from '@platform/rate-limit';
import { buildApp } from './app.js';
import { loadMainApiConfig } from './config.js';
import { createAvatarStorage } from './storage/from-config.js';

async function main(): Promise<void> {
  // A bad variable stops the process with one line naming it, not a stack trace.
  const config = loadConfigOrExit(() => loadMainApiConfig());

  const database = await createDatabase({
    ...(config.databaseUrl === undefined ? {} : { url: config.databaseUrl }),
    maxConnections: config.databasePoolSize,
    ...(config.pgliteDataDir === undefined ? {} : { dataDir: config.pgliteDataDir }),
  });
  if (config.migrateOnStart) await migrateDatabase(database);

  const redis = config.redisUrl === undefined ? undefined : createRedisClient(config.redisUrl);
  const storage = createAvatarStorage(config.avatars.storage, config.publicUrl);
  const app = buildApp({ database, storage, ...(redis === undefined ? {} : { redis }) }, config);

  app.addHook('onClose', async () => {
    redis?.disconnect();
    await database.close();
  });

  if (redis !== undefined) {
    logRedisAvailability(redis, app.log);
    // Not fatal: requests run without rate limits until Redis answers, and /readyz reports it meanwhile.
    await redis.connect().catch(() => undefined);
  }
  await listen(app, { host: config.host, port: config.port });
}

await main();
