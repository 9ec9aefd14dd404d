import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiKey } from '@platform/api-keys';
import type { ApiKeyEnvironment, Database, DatabaseHandle, MembershipRole } from '@platform/db';
import { memberships, organizations, users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { topUpWallet } from '@platform/ledger';
import {
  buildApp as buildMainApi,
  createLocalFolderStorage,
  loadMainApiConfig,
  signAccessToken,
} from '@platform/main-api';
import { ensureWebhookEndpoint } from '@platform/webhooks';
import { createDocumentStore, startBackendApi } from './backend-api.js';

// Both services over real HTTP on one test database, as they run in production: backend-api serves the API and
// the hosted page (at VERIFY_HOST, which the browser maps to it) and delivers callbacks; main-api serves the review
// API and console. Both open the same document store with the same master key.

const TOKEN_SECRET = 'an-e2e-token-signing-secret-of-32-chars';
const ISSUER = 'https://identity.e2e.example/';
const AUDIENCE = 'main-api-e2e';

export interface Callback {
  body: string;
  headers: Record<string, string>;
}

export interface Organization {
  id: string;
  liveKey: string;
  testKey: string;
  /** The live callback endpoint's signing secret. */
  liveCallbackSecret: string;
}

export interface RunningPlatform {
  db: Database;
  mainUrl: string;
  backendUrl: string;
  backendPort: number;
  /** The customer's server: every callback it received, in order. */
  callbacks: Callback[];
  callbackUrl: string;
  /** Where the documents are stored (encrypted). */
  documentDir: string;
  platform: Organization;
  /** A reviewer of the platform organization, and a token for them. */
  reviewer: { userId: string; token: string };
  tokenFor(userId: string): Promise<string>;
  /** A user, a member of `organizationId` in `role`. */
  addMember(organizationId: string, userId: string, role: MembershipRole): Promise<void>;
  addOrganization(name: string): Promise<Organization>;
  close(): Promise<void>;
}

export interface PlatformOptions {
  /** backend-api variables over the journeys' own (e.g. VERIFICATION_DECISIONS and Smile ID's). */
  backendEnv?: NodeJS.ProcessEnv;
}

export async function startPlatform({ backendEnv = {} }: PlatformOptions = {}): Promise<RunningPlatform> {
  const database: DatabaseHandle = await createTestDatabase();
  const db = database.db;
  const documents = await createDocumentStore();
  const callbacks: Callback[] = [];
  const receiver = await startReceiver(callbacks);
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;

  const tokenFor = (userId: string) =>
    signAccessToken({
      secret: TOKEN_SECRET,
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: userId,
      email: `${userId}@e2e.example`,
    });
  const addMember = async (organizationId: string, userId: string, role: MembershipRole) => {
    await db
      .insert(users)
      .values({ id: userId, email: `${userId}@e2e.example`, firstName: 'E2E', lastName: role })
      .onConflictDoNothing();
    await db.insert(memberships).values({ organizationId, userId, role });
  };
  const addOrganization = async (name: string): Promise<Organization> => {
    const [row] = await db.insert(organizations).values({ name, activatedAt: new Date() }).returning();
    const id = row?.id ?? '';
    const keys: Record<ApiKeyEnvironment, string> = { live: '', test: '' };
    for (const environment of ['live', 'test'] as const) {
      keys[environment] = (await createApiKey(db, { organizationId: id, environment })).secret;
      await db.transaction((tx) =>
        topUpWallet(
          tx,
          { organizationId: id, environment },
          { amount: 10_000, reference: `e2e-funding:${id}:${environment}` },
        ),
      );
    }
    const endpoint = await ensureWebhookEndpoint(db, { organizationId: id, environment: 'live' });
    return { id, liveKey: keys.live, testKey: keys.test, liveCallbackSecret: endpoint.secret };
  };

  const platform = await addOrganization('Platform');
  const reviewerId = 'user_e2e_reviewer';
  await addMember(platform.id, reviewerId, 'reviewer');

  const backend = await startBackendApi(database, {
    platformOrganizationId: platform.id,
    documents,
    env: backendEnv,
  });

  const mainConfig = loadMainApiConfig({
    LOG_LEVEL: 'silent',
    AUTH_JWT_SECRET: TOKEN_SECRET,
    AUTH_ISSUER: ISSUER,
    AUTH_AUDIENCE: AUDIENCE,
    PUBLIC_URL: 'http://127.0.0.1',
    PLATFORM_ORGANIZATION_ID: platform.id,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...documents.env,
  });
  const avatarDir = await mkdtemp(path.join(tmpdir(), 'e2e-avatars-'));
  const main = buildMainApi(
    { database, storage: createLocalFolderStorage({ directory: avatarDir, publicUrl: mainConfig.publicUrl }) },
    mainConfig,
  );
  const mainUrl = await main.listen({ host: '127.0.0.1', port: 0 });

  return {
    db,
    mainUrl,
    backendUrl: backend.url,
    backendPort: backend.port,
    callbacks,
    callbackUrl,
    documentDir: documents.directory,
    platform,
    reviewer: { userId: reviewerId, token: await tokenFor(reviewerId) },
    tokenFor,
    addMember,
    addOrganization,
    async close() {
      await Promise.allSettled([main.close(), backend.close()]);
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
      await database.close();
      await documents.remove();
      await rm(avatarDir, { recursive: true, force: true });
    },
  };
}

async function startReceiver(callbacks: Callback[]): Promise<Server> {
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      callbacks.push({ body, headers: request.headers as Record<string, string> });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return receiver;
}
