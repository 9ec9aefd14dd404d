import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, type DatabaseHandle } from '@platform/db';
import {
  buildApp,
  createAvatarStorage,
  loadMainApiConfig,
  type MainApiApp,
  type MainApiDeps,
  signAccessToken,
} from '@platform/main-api';
import { createRedisClient } from '@platform/rate-limit';

const ISSUER = 'http://localhost/faults';
const AUDIENCE = 'platform-faults';

/** One main-api instance as server.ts builds it, with its own pool and Redis connection. */
export interface MainInstance {
  app: MainApiApp;
  /** A bearer token for `userId`, as the identity provider would issue it for this instance. */
  tokenFor(userId: string): Promise<string>;
  close(): Promise<void>;
}

export interface MainInstanceOptions {
  databaseUrl: string;
  redisUrl: string;
  env?: NodeJS.ProcessEnv;
  /** Replaces the silent logger, to read what the instance says. */
  logger?: MainApiDeps['logger'];
  /** The instance's clock; the system time by default. */
  now?: () => Date;
}

export async function startMainInstance(options: MainInstanceOptions): Promise<MainInstance> {
  const jwtSecret = randomBytes(32).toString('base64url');
  const avatarDir = mkdtempSync(path.join(tmpdir(), 'faults-avatars-'));
  const database: DatabaseHandle = await createDatabase({ url: options.databaseUrl, maxConnections: 3 });
  const redis = createRedisClient(options.redisUrl);
  await redis.connect().catch(() => undefined);
  const config = loadMainApiConfig({
    LOG_LEVEL: 'silent',
    AUTH_JWT_SECRET: jwtSecret,
    AUTH_ISSUER: ISSUER,
    AUTH_AUDIENCE: AUDIENCE,
    AVATAR_LOCAL_DIR: avatarDir,
    PAYMENT_RECONCILE_INTERVAL_MS: '0',
    RENEWAL_INTERVAL_MS: '0',
    SANDBOX_STK_DELAY_MS: '0',
    ...options.env,
  });
  const app = buildApp(
    {
      database,
      redis,
      storage: createAvatarStorage(config.avatars.storage, config.publicUrl),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.now === undefined ? {} : { now: options.now }),
    },
    config,
  );
  await app.ready();
  return {
    app,
    tokenFor: (userId) => signAccessToken({ secret: jwtSecret, issuer: ISSUER, audience: AUDIENCE, subject: userId }),
    async close() {
      await app.close();
      redis.disconnect();
      await database.close();
      rmSync(avatarDir, { recursive: true, force: true });
    },
  };
}
