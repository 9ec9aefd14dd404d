/**
 * The one-command local start: one embedded PostgreSQL (PGlite) shared by both services in one
 * process, migrated and seeded, with printed demo credentials. Production runs each service as
 * its own process on PostgreSQL and Redis instead (see the README).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp as buildBackendApi, loadBackendApiConfig } from '@platform/backend-api';
import { createDatabase, migrateDatabase, seedDemoData } from '@platform/db';
import { buildApp as buildMainApi, createAvatarStorage, loadMainApiConfig, signAccessToken } from '@platform/main-api';
import {
  creditDemoWallets,
  demoWebhookSecrets,
  ensureDemoApiKeys,
  writeCredentials,
  type LocalCredentials,
} from './credentials.js';
import { loadOrCreateSecrets, prepareDataDir, REPO_ROOT } from './data-dir.js';
import { printBanner } from './banner.js';

// `pnpm start -- --fresh` passes the separator through; accept it.
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const { values: flags } = parseArgs({ args, options: { fresh: { type: 'boolean', default: false } } });

const dataDir = path.resolve(process.env.LOCAL_DATA_DIR ?? path.join(REPO_ROOT, '.data'));
prepareDataDir(dataDir, { fresh: flags.fresh || process.env.LOCAL_FRESH === 'true' });
const secrets = loadOrCreateSecrets(dataDir);
const credentialsFile = path.join(dataDir, 'local-credentials.json');

const host = process.env.HOST ?? '127.0.0.1';
const issuer = 'http://localhost/local-start';
const audience = 'platform-local';
const logLevel = process.env.LOG_LEVEL ?? 'warn';

const database = await createDatabase({ dataDir: path.join(dataDir, 'pglite') });
await migrateDatabase(database);
const demo = await seedDemoData(database.db);
const keys = await ensureDemoApiKeys(database.db, demo, credentialsFile);
await creditDemoWallets(database.db, demo);
const webhookSecrets = await demoWebhookSecrets(database.db, demo);

const mainConfig = loadMainApiConfig({
  ...process.env,
  PORT: process.env.MAIN_PORT ?? '3000',
  HOST: host,
  LOG_LEVEL: logLevel,
  DATABASE_URL: '',
  REDIS_URL: '',
  AUTH_JWT_SECRET: secrets.jwtSecret,
  AUTH_JWKS_URL: '',
  AUTH_ISSUER: issuer,
  AUTH_AUDIENCE: audience,
  AVATAR_STORAGE: 'local',
  AVATAR_LOCAL_DIR: path.join(dataDir, 'avatars'),
  // Callbacks and default callback URLs may point at this machine (http://localhost:...).
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  PUBLIC_URL: process.env.MAIN_PUBLIC_URL ?? `http://localhost:${process.env.MAIN_PORT ?? '3000'}`,
});
const backendConfig = loadBackendApiConfig({
  ...process.env,
  PORT: process.env.BACKEND_PORT ?? '3001',
  HOST: host,
  LOG_LEVEL: logLevel,
  DATABASE_URL: '',
  REDIS_URL: '',
  // The delivery worker runs here (WEBHOOK_DELIVERY_ENABLED defaults to true) and may call back to loopback.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  // The demo organization plays the platform: its live kyc sessions of user_demo set the demo user's kycStatus,
  // and on this machine live sessions can be finished with the hosted page's sandbox controls too.
  PLATFORM_ORGANIZATION_ID: process.env.PLATFORM_ORGANIZATION_ID || demo.organizationId,
  HOSTED_PAGE_LIVE_SANDBOX: process.env.HOSTED_PAGE_LIVE_SANDBOX || 'true',
});

const shutdownList: Array<() => Promise<unknown>> = [];

const backendApi = buildBackendApi({ database }, backendConfig);
shutdownList.push(() => backendApi.close());
const backendUrl = localUrl(await backendApi.listen({ host, port: backendConfig.PORT }));

const mainApi = buildMainApi(
  { database, storage: createAvatarStorage(mainConfig.avatars.storage, mainConfig.publicUrl) },
  mainConfig,
);
shutdownList.push(() => mainApi.close());
const mainUrl = localUrl(await mainApi.listen({ host, port: mainConfig.port }));

function localUrl(address: string): string {
  return address.replace('127.0.0.1', 'localhost').replace('[::1]', 'localhost');
}

const tokenFor = (subject: string) =>
  signAccessToken({ secret: secrets.jwtSecret, issuer, audience, subject, expiresIn: '30d' });

const credentials: LocalCredentials = {
  mainUrl,
  backendUrl,
  userId: demo.userId,
  token: await tokenFor(demo.userId),
  organizationId: demo.organizationId,
  otherUserId: demo.otherUserId,
  otherToken: await tokenFor(demo.otherUserId),
  otherOrganizationId: demo.otherOrganizationId,
  liveApiKey: keys.liveApiKey,
  testApiKey: keys.testApiKey,
  webhookSecrets,
};
writeCredentials(credentialsFile, credentials);
printBanner(credentials, credentialsFile);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`\n${signal} received: stopping both services.`);
  await Promise.allSettled(shutdownList.map((close) => close()));
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
