import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseHandle } from '@platform/db';
import { memberships, organizations, users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import {
  API_SCOPE,
  accountBookOf,
  DASHBOARD_CLIENT_ID,
  startLocalIdentityProvider,
} from '@platform/local-start/identity-provider';
import {
  buildApp,
  createLocalFolderStorage,
  createOutboxMailSender,
  loadMainApiConfig,
  signAccessToken,
} from '@platform/main-api';
import type { Page } from 'playwright-core';
import { type Browser, expectPhoneFriendly, launchBrowser } from '#test-browser';
import { expectNoSeriousAxeViolations } from './axe.js';
import { createDocumentStore, startBackendApi, VERIFY_URL } from './backend-api.js';

// The dashboard as its browser journeys meet it (docs/decisions.md#dashboard-pages): main-api on a test database
// and a real port, the local start's identity provider beside it (one-time codes go to the mail outbox, as every
// other email), two headless Chromiums (no script for the journey, script for axe alone), and the check every
// page gets at each size: axe-core, the phone's width, and a screenshot to look at.

/** The two sizes every dashboard journey runs at: a small phone and a desktop. */
export const SIZES = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
export type JourneySize = (typeof SIZES)[number];

export interface DashboardPlatform {
  /** main-api's origin, e.g. `http://localhost:43121`. */
  mainUrl: string;
  /** backend-api beside it, when the journey asked for it. */
  backend?: DashboardBackend;
  /** The folder every email is written to (sign-in codes, invitations, receipts). */
  outbox: string;
  database: DatabaseHandle;
  /** Script off: the journey's own browser. */
  browser: Browser;
  /** Script on, for axe alone. */
  checker: Browser;
  /** A bearer token of the API for the user, to do through the API what no page does yet. */
  apiToken(userId: string): Promise<string>;
  close(): Promise<void>;
}

export interface DashboardPlatformOptions {
  /** More of main-api's environment (e.g. a webhook or checkout setting), over the journey's defaults. */
  env?: Record<string, string>;
  /**
   * backend-api too, on the same database, with the platform's organization and a reviewer of it: the hosted page
   * (which the browser reaches at VERIFY_HOST) and the review console decide a verification. `env`: more of
   * backend-api's environment, over the journeys' defaults.
   */
  backend?: { env?: NodeJS.ProcessEnv };
}

export interface DashboardBackend {
  url: string;
  platformOrganizationId: string;
  /** A bearer token of the platform's reviewer, for the review console. */
  reviewerToken: string;
}

const REVIEWER_ID = 'user_e2e_platform_reviewer';

/** The platform's organization (activated) and its reviewer, as the local start seeds them. */
async function seedPlatformOrganization(database: DatabaseHandle, platformOrganizationId: string): Promise<void> {
  const { db } = database;
  await db.insert(organizations).values({ id: platformOrganizationId, name: 'Platform', activatedAt: new Date() });
  await db
    .insert(users)
    .values({ id: REVIEWER_ID, email: 'reviewer@platform.example', firstName: 'Pat', lastName: 'Reviewer' });
  await db
    .insert(memberships)
    .values({ organizationId: platformOrganizationId, userId: REVIEWER_ID, role: 'reviewer' });
}

const TOKEN_SECRET = 'an-e2e-token-signing-secret-of-32-chars';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startDashboardPlatform(options: DashboardPlatformOptions = {}): Promise<DashboardPlatform> {
  const closers: Array<() => Promise<unknown>> = [];
  const dataDir = await mkdtemp(path.join(tmpdir(), 'e2e-dashboard-'));
  closers.push(() => rm(dataDir, { recursive: true, force: true }));
  const close = async () => {
    for (const each of closers) await each();
  };
  try {
    const outbox = path.join(dataDir, 'outbox');
    const port = await freePort();
    const mainUrl = `http://localhost:${port}`;
    const audience = 'main-api-e2e';
    const mail = createOutboxMailSender({ directory: outbox, from: 'Local identity provider <no-reply@localhost>' });
    const idp = await startLocalIdentityProvider({
      host: '127.0.0.1',
      port: 0,
      redirectUri: `${mainUrl}/login/callback`,
      audience,
      accounts: accountBookOf(undefined, []),
      sendCode: (message) => mail.send(message),
    });
    closers.unshift(() => idp.close());
    const database = await createTestDatabase();
    closers.unshift(() => database.close());
    const apiToken = (userId: string) =>
      signAccessToken({ secret: TOKEN_SECRET, issuer: idp.issuer, audience, subject: userId });
    let backend: DashboardBackend | undefined;
    let backendEnv: Record<string, string> = {};
    const hostRules: string[] = [];
    if (options.backend !== undefined) {
      const platformOrganizationId = randomUUID();
      await seedPlatformOrganization(database, platformOrganizationId);
      const documents = await createDocumentStore();
      closers.push(() => documents.remove());
      const running = await startBackendApi(database, { platformOrganizationId, documents, env: options.backend.env });
      closers.unshift(() => running.close());
      backend = { url: running.url, platformOrganizationId, reviewerToken: await apiToken(REVIEWER_ID) };
      backendEnv = { PLATFORM_ORGANIZATION_ID: platformOrganizationId, VERIFY_URL, ...documents.env };
      hostRules.push(running.hostRule);
    }
    const config = loadMainApiConfig({
      LOG_LEVEL: 'silent',
      PUBLIC_URL: mainUrl,
      AUTH_JWT_SECRET: TOKEN_SECRET,
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: audience,
      AVATAR_LOCAL_DIR: path.join(dataDir, 'avatars'),
      MAIL_OUTBOX_DIR: outbox,
      DASHBOARD_OIDC_ISSUER: idp.issuer,
      DASHBOARD_OIDC_CLIENT_ID: DASHBOARD_CLIENT_ID,
      DASHBOARD_OIDC_SCOPES: `openid email profile ${API_SCOPE}`,
      ...backendEnv,
      ...options.env,
    });
    const app = buildApp(
      { database, storage: createLocalFolderStorage({ directory: path.join(dataDir, 'avatars'), publicUrl: mainUrl }) },
      config,
    );
    await app.listen({ host: '127.0.0.1', port });
    closers.unshift(() => app.close());
    const browser = await launchBrowser({ hostRules });
    closers.unshift(() => browser.close());
    const checker = await launchBrowser({ javaScript: true, hostRules });
    closers.unshift(() => checker.close());
    return { mainUrl, backend, outbox, database, browser, checker, apiToken, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The messages of the outbox sent to `to`, newest first. */
export async function mailTo(outbox: string, to: string): Promise<string[]> {
  const files = (await readdir(outbox).catch(() => [] as string[])).sort().reverse();
  const messages = await Promise.all(files.map((file) => readFile(path.join(outbox, file), 'utf8')));
  return messages.filter((message) => message.includes(`To: ${to}`));
}

/** The code in the newest sign-in email to `to`. */
export async function codeFor(outbox: string, to: string): Promise<string> {
  for (const message of await mailTo(outbox, to)) {
    const code = /sign-in code is (\d{6})/.exec(message)?.[1];
    if (code !== undefined) return code;
  }
  throw new Error(`no code for ${to} in the outbox`);
}

/** A new visitor's page at the size: no dashboard cookie (its language), no session at the provider. */
export async function freshPage(platform: DashboardPlatform, size: JourneySize): Promise<Page> {
  await platform.browser.context.clearCookies();
  const page = await platform.browser.context.newPage();
  await page.setViewportSize({ width: size.width, height: size.height });
  return page;
}

/**
 * Signs up (or in) from the dashboard's sign-in page through the local identity provider: the address, the code from
 * the outbox, and the names a new account is asked for. Ends on the page the sign-in returns to (Home by default).
 */
export async function signUp(
  platform: DashboardPlatform,
  page: Page,
  account: { email: string; givenName: string; familyName: string },
  from = '/dashboard',
): Promise<void> {
  await page.goto(`${platform.mainUrl}${from}`);
  await page.getByRole('button', { name: 'Sign in or create an account' }).click();
  await page.getByLabel('Email address').fill(account.email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  // The code page is shown once its email is in the outbox.
  await page.getByLabel('One-time code').waitFor();
  await page.getByLabel('One-time code').fill(await codeFor(platform.outbox, account.email));
  // Only a new account is asked for its names.
  if ((await page.getByLabel('First name').count()) > 0) {
    await page.getByLabel('First name').fill(account.givenName);
    await page.getByLabel('Last name').fill(account.familyName);
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/dashboard'));
}

/**
 * The check of every page of a journey, by name: no serious or critical axe violation, nothing wider than a phone
 * at the phone's size, and a full-page screenshot `<name>-<width>x<height>.png` in `directory`.
 */
export function pageChecker(platform: DashboardPlatform, page: Page, size: JourneySize, directory: string) {
  return async (name: string): Promise<void> => {
    await mkdir(directory, { recursive: true });
    await expectNoSeriousAxeViolations(page, platform.checker.context);
    if (size.name === 'phone') await expectPhoneFriendly(page);
    await page.screenshot({ path: path.join(directory, `${name}-${size.width}x${size.height}.png`), fullPage: true });
  };
}
