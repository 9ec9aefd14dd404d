import { createDatabase, migrateDatabase } from '@platform/db';
import { listen } from '@platform/http';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { loadBackendApiConfig } from './config.js';

// The composition root of one backend-api process, as it runs in production.
const config = loadBackendApiConfig();
const database = await createDatabase({ url: config.DATABASE_URL, dataDir: config.PGLITE_DATA_DIR });
if (config.MIGRATE_ON_START) await migrateDatabase(database);
const redis = config.REDIS_URL
  ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 })
  : undefined;

redis?.on('error', () => {}); // failures surface through /readyz and the callers' own error handling
const app = buildApp({ db: database.db, pingDatabase: database.ping, redis }, config);
app.addHook('onClose', async () => {
  redis?.disconnect();
  await database.close();
});
await listen(app, { host: config.HOST, port: config.PORT });
