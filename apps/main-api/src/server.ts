// The composition root: reads config, opens the database, Redis and storage, builds the app and listens.
import { createDatabase, migrateDatabase } from '@platform/db';
import { ConfigError, listen } from '@platform/http';
import { createRedisClient, logRedisAvailability } from '@platform/rate-limit';
import { buildApp } from './app.js';
import { loadMainApiConfig, type MainApiConfig } from './config.js';
import { createAvatarStorage } from './storage/from-config.js';

async function main(): Promise<void> {
  const config = readConfigOrExit();

  const database = await createDatabase({
    ...(config.databaseUrl === undefined ? {} : { url: config.databaseUrl }),
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

function readConfigOrExit(): MainApiConfig {
  try {
    return loadMainApiConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

await main();
