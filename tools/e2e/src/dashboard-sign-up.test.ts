import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseHandle } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import {
  API_SCOPE,
  accountBookOf,
  DASHBOARD_CLIENT_ID,
  startLocalIdentityProvider,
} from '@platform/local-start/identity-provider';
import { buildApp, createLocalFolderStorage, createOutboxMailSender, loadMainApiConfig } from '@platform/main-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, expectPhoneFriendly, launchBrowser, policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { expectNoSeriousAxeViolations } from './axe.js';
import { organizationWithTestSession } from './database.js';

// A business signs up for the dashboard in a browser (docs/decisions.md#dashboard-sign-in): main-api on a test
// database, the local start's identity provider beside it, the one-time code read from the mail outbox. At a phone's
// size and a desktop's, every page checked with axe-core and photographed (SCREENSHOT_DIR, /tmp/shots-signin).

const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots-signin';
const SIZES = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The code in the newest email to `to` in the outbox. */
async function codeFor(outbox: string, to: string): Promise<string> {
  for (const file of (await readdir(outbox)).sort().reverse()) {
    const message = await readFile(path.join(outbox, file), 'utf8');
    if (!message.includes(`To: ${to}`)) continue;
    const code = /sign-in code is (\d{6})/.exec(message)?.[1];
    if (code !== undefined) return code;
  }
  throw new Error(`no code for ${to} in the outbox`);
}

describe.skipIf(missing(chromiumBrowser))('signing up for the dashboard in a browser', () => {
  let browser: Browser;
  /** Script on, for axe alone. */
  let checker: Browser;
  let dataDir: string;
  let mainUrl: string;
  let outbox: string;
  let database: DatabaseHandle;
  const closers: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'e2e-dashboard-'));
    await mkdir(SHOTS, { recursive: true });
    outbox = path.join(dataDir, 'outbox');
    const port = await freePort();
    mainUrl = `http://localhost:${port}`;
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
    closers.push(() => idp.close());
    database = await createTestDatabase();
    closers.push(() => database.close());
    const config = loadMainApiConfig({
      LOG_LEVEL: 'silent',
      PUBLIC_URL: mainUrl,
      AUTH_JWT_SECRET: 'an-e2e-token-signing-secret-of-32-chars',
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: audience,
      AVATAR_LOCAL_DIR: path.join(dataDir, 'avatars'),
      DASHBOARD_OIDC_ISSUER: idp.issuer,
      DASHBOARD_OIDC_CLIENT_ID: DASHBOARD_CLIENT_ID,
      DASHBOARD_OIDC_SCOPES: `openid email profile ${API_SCOPE}`,
    });
    const app = buildApp(
      { database, storage: createLocalFolderStorage({ directory: path.join(dataDir, 'avatars'), publicUrl: mainUrl }) },
      config,
    );
    await app.listen({ host: '127.0.0.1', port });
    closers.unshift(() => app.close());
    browser = await launchBrowser();
    closers.unshift(() => browser.close());
    checker = await launchBrowser({ javaScript: true });
    closers.unshift(() => checker.close());
  });
  afterAll(async () => {
    for (const close of closers) await close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it.each(SIZES)('signs up with a code from the outbox and lands on Home ($name, $width x $height)', async (size) => {
    // A new visitor each time: no dashboard cookie (its language), no session at the provider.
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: size.width, height: size.height });
    const violations = policyViolationsOf(page);
    const email = `owner-${size.name}@duka.example`;
    const check = async (name: string) => {
      await expectNoSeriousAxeViolations(page, checker.context);
      if (size.name === 'phone') await expectPhoneFriendly(page);
      await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}x${size.height}.png`), fullPage: true });
    };

    await page.goto(`${mainUrl}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await check('1-sign-in');

    await page.getByRole('button', { name: 'Sign in or create an account' }).click();
    await page.getByLabel('Email address').waitFor();
    await check('2-idp-email');

    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('One-time code').waitFor();
    await check('3-idp-code');

    await page.getByLabel('One-time code').fill(await codeFor(outbox, email));
    await page.getByLabel('First name').fill('Wanjiku');
    await page.getByLabel('Last name').fill('Kamau');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Welcome, Wanjiku Kamau' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByText('You do not belong to any organization yet').waitFor();
    await check('4-home');

    // An organization with a test session (the create form and the API's session are other journeys' part).
    await organizationWithTestSession(database.db, email, `Duka Lending ${size.name}`);
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('link', { name: 'Verifications' }).click();
    await page.getByRole('heading', { name: 'Verifications' }).waitFor();
    await page.getByText('You are looking at test data').waitFor();
    await check('5-verifications');

    await page.getByRole('link', { name: /EAT$/ }).first().click();
    await page.getByRole('heading', { name: 'Verification session' }).waitFor();
    await check('6-session');

    await page.getByRole('link', { name: 'Kiswahili' }).click();
    await page.getByRole('heading', { name: 'Kipindi cha uthibitishaji' }).waitFor();
    await check('7-session-sw');

    await page.getByRole('button', { name: 'Ghairi kipindi hiki' }).click();
    await page.getByText('Kipindi kimeghairiwa').waitFor();

    await page.getByRole('link', { name: 'Uthibitishaji', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Uthibitishaji' }).waitFor();
    await check('8-verifications-sw');

    await page.getByRole('link', { name: 'Mwanzo' }).click();
    await page.getByRole('heading', { name: 'Karibu, Wanjiku Kamau' }).waitFor();
    await check('9-home-sw');

    await page.getByRole('button', { name: 'Toka' }).click();
    await page.getByText('Umetoka.').waitFor();
    await check('10-signed-out-sw');
    expect(violations).toEqual([]);
    await page.close();
  });
});
