/**
 * The one-command local start. Without DATABASE_URL: one embedded PostgreSQL (PGlite) shared by both
 * services in this process. With DATABASE_URL (and REDIS_URL): each service as its own process, as in
 * production. Either way the database is migrated and seeded and demo credentials are printed.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, type DemoPerson, localDataDir, migrateDatabase, seedDemoData } from '@platform/db';
import { createOutboxMailSender, signAccessToken } from '@platform/main-api';
import { printBanner } from './banner.js';
import { startAsProcesses } from './child-processes.js';
import {
  creditDemoWallets,
  demoWebhookSecrets,
  ensureDemoApiKeys,
  type LocalCredentials,
  writeCredentials,
} from './credentials.js';
import { loadOrCreateSecrets, prepareDataDir } from './data-dir.js';
import { accountBookOf } from './identity-provider/accounts.js';
import { startLocalIdentityProvider } from './identity-provider/provider.js';
import { type RunningServices, startInProcess } from './in-process.js';
import { allowDemoOrigin, startSdkDemo } from './sdk-demo.js';
import { allowsPrivateTargets, type LocalSettings, mailOutboxDir } from './service-env.js';
import { smileIdEnv, startLocalSmileId, wantsFakeSmileId } from './smile-id.js';

// `pnpm start -- --fresh` passes the separator through; accept it.
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const { values: flags } = parseArgs({ args, options: { fresh: { type: 'boolean', default: false } } });

// LOCAL_DATA_DIR, default .data at the repository root: the folder the backend-api commands look in too.
const dataDir = localDataDir();
prepareDataDir(dataDir, { fresh: flags.fresh || process.env.LOCAL_FRESH === 'true' });
const secrets = loadOrCreateSecrets(dataDir);
const credentialsFile = path.join(dataDir, 'local-credentials.json');
const databaseUrl = process.env.DATABASE_URL || undefined;
const redisUrl = process.env.REDIS_URL || undefined;

const database = await createDatabase(databaseUrl ? { url: databaseUrl } : { dataDir: path.join(dataDir, 'pglite') });
await migrateDatabase(database);
const demo = await seedDemoData(database.db);
const keys = await ensureDemoApiKeys(database.db, demo, credentialsFile);
await creditDemoWallets(database.db, demo);
const webhookSecrets = await demoWebhookSecrets(database.db, demo);
const smileId = wantsFakeSmileId() ? await startLocalSmileId() : undefined;

const host = process.env.HOST ?? '127.0.0.1';
const mainPort = process.env.MAIN_PORT ?? '3000';
const audience = 'platform-local';
// The local identity provider the dashboard signs in with (never deployed): its codes go to the mail outbox.
const outbox = createOutboxMailSender({
  directory: mailOutboxDir(dataDir),
  from: 'Local identity provider <no-reply@localhost>',
});
const identityProvider = await startLocalIdentityProvider({
  host,
  port: Number(process.env.IDP_PORT ?? '3003'),
  redirectUri: `${process.env.MAIN_PUBLIC_URL || `http://localhost:${mainPort}`}/login/callback`,
  audience,
  accounts: accountBookOf(path.join(dataDir, 'identity-accounts.json'), [
    ...Object.values(demo.roleUsers),
    demo.otherUser,
    demo.newUser,
    demo.noProfileUser,
  ]),
  keyFile: path.join(dataDir, 'identity-signing-key.json'),
  sendCode: (message) => outbox.send(message),
});

const settings: LocalSettings = {
  host,
  mainPort,
  backendPort: process.env.BACKEND_PORT ?? '3001',
  logLevel: process.env.LOG_LEVEL ?? 'warn',
  jwtSecret: secrets.jwtSecret,
  // One issuer for the identity provider's tokens and the credentials file's (docs/decisions.md#dashboard-sign-in).
  issuer: identityProvider.issuer,
  jwksUrl: identityProvider.jwksUrl,
  audience,
  dataDir,
  documentKey: secrets.documentKey,
  platformOrganizationId: demo.organizationId,
  ...(databaseUrl ? { databaseUrl } : {}),
  ...(redisUrl ? { redisUrl } : {}),
  smileIdEnv: smileIdEnv(smileId),
};

let services: RunningServices;
if (databaseUrl) {
  // The services open their own connections; this one was only for migrating and seeding.
  await database.close();
  services = await startAsProcesses(settings);
} else {
  services = await startInProcess(database, settings);
}

// A token carries the user's address as its `email` claim, as an identity provider's does.
const tokenFor = (person: DemoPerson) =>
  signAccessToken({
    secret: secrets.jwtSecret,
    issuer: settings.issuer,
    audience: settings.audience,
    subject: person.userId,
    email: person.email,
    expiresIn: '30d',
  });

const tokens = {
  owner: await tokenFor(demo.roleUsers.owner),
  admin: await tokenFor(demo.roleUsers.admin),
  developer: await tokenFor(demo.roleUsers.developer),
  billing: await tokenFor(demo.roleUsers.billing),
  member: await tokenFor(demo.roleUsers.member),
  reviewer: await tokenFor(demo.roleUsers.reviewer),
  finance: await tokenFor(demo.roleUsers.finance),
};
// The front-end SDK's demo page, on its own port: its origin is allowed for the demo organization's test sessions.
const sdkDemo = await startSdkDemo({
  host: settings.host,
  port: process.env.DEMO_PORT ?? '3002',
  backendUrl: services.backendUrl,
  apiKey: keys.testApiKey,
  returnHere: allowsPrivateTargets(),
});
await allowDemoOrigin({
  mainUrl: services.mainUrl,
  token: tokens.owner,
  organizationId: demo.organizationId,
  origin: new URL(sdkDemo.url).origin,
});

const credentials: LocalCredentials = {
  mainUrl: services.mainUrl,
  backendUrl: services.backendUrl,
  userId: demo.userId,
  token: tokens.owner,
  organizationId: demo.organizationId,
  tokens,
  reviewerToken: tokens.reviewer,
  newUserToken: await tokenFor(demo.newUser),
  noProfileToken: await tokenFor(demo.noProfileUser),
  otherUserId: demo.otherUserId,
  otherToken: await tokenFor(demo.otherUser),
  otherOrganizationId: demo.otherOrganizationId,
  liveApiKey: keys.liveApiKey,
  testApiKey: keys.testApiKey,
  webhookSecrets,
  sdkDemoUrl: sdkDemo.url,
  dashboardUrl: `${services.mainUrl}/dashboard`,
  identityProviderUrl: identityProvider.issuer,
};
writeCredentials(credentialsFile, credentials);
printBanner(credentials, credentialsFile, databaseUrl ? 'separate' : 'embedded', mailOutboxDir(dataDir), smileId?.url);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`\n${signal} received: stopping both services.`);
  await sdkDemo.stop();
  await services.stop();
  await identityProvider.close();
  await smileId?.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
