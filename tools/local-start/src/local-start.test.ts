import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectionUrlOf } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { missing, postgresServer, redisServer } from '#test-prerequisites';
import { closedPort } from '#test-timing';
import type { LocalCredentials } from './credentials.js';
import { REPO_ROOT } from './data-dir.js';

// Starts the local start exactly as the README tells a newcomer to (`pnpm start`), on free ports
// and a scratch data folder, and calls the API with the credentials it prints.

// How long one start may take to print its credentials, and a test of several starts in all: only a failing
// start waits this long, while a loaded CI machine can take minutes to install, compile and migrate.
const START_DEADLINE_MS = 420_000;
const TEST_DEADLINE_MS = 1_500_000;

/** Everything the local starts of the running test printed, shown when it fails: CI keeps no other trace of them. */
let transcript = '';
function showTranscriptOnFailure(): void {
  transcript = '';
  onTestFailed(() => {
    console.error(`What the local start printed during this test:\n${transcript}`);
  });
}

interface Started {
  child: ChildProcess;
  credentials: LocalCredentials;
  output: string;
}

/** Without extra env the embedded mode runs, even where the test process itself has DATABASE_URL (CI). */
async function start(
  dataDir: string,
  extraArgs: string[] = [],
  env: NodeJS.ProcessEnv = { DATABASE_URL: '', REDIS_URL: '' },
): Promise<Started> {
  const [mainPort, backendPort, demoPort, idpPort] = [
    await closedPort(),
    await closedPort(),
    await closedPort(),
    await closedPort(),
  ];
  const child = spawn('corepack', ['pnpm', 'start', ...extraArgs], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
      // The test run installed everything; a second install would rewrite node_modules under the other test tasks.
      SKIP_ENSURE_INSTALL: 'true',
      LOCAL_DATA_DIR: dataDir,
      MAIN_PORT: String(mainPort),
      BACKEND_PORT: String(backendPort),
      DEMO_PORT: String(demoPort),
      IDP_PORT: String(idpPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so Ctrl-C can be sent to the whole tree (corepack, pnpm, tsx, node).
    detached: true,
  });
  let output = '';
  const credentialsPath = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`local start did not print credentials:\n${output}`)),
      START_DEADLINE_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      transcript += chunk.toString();
      const match = /Credentials file: (.+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].trim());
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local start exited with ${code}:\n${output}`));
    });
  });
  const credentials = JSON.parse(readFileSync(credentialsPath, 'utf8')) as LocalCredentials;
  return { child, credentials, output };
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    started.child.once('exit', () => resolve());
    process.kill(-started.child.pid!, 'SIGINT');
  });
}

describe('the one-command local start', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'local-start-'));
  const running: Started[] = [];
  afterAll(async () => {
    await Promise.all(running.map(stop));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'serves the demo profile with the printed token and keeps its data across restarts',
    async () => {
      showTranscriptOnFailure();
      const first = await start(dataDir);
      running.push(first);
      const { credentials } = first;
      expect(first.output).toContain(credentials.token);
      expect(first.output).toContain(credentials.liveApiKey);

      const me = await fetch(`${credentials.mainUrl}/v1/accounts/me`, {
        headers: { authorization: `Bearer ${credentials.token}` },
      });
      expect(me.status).toBe(200);
      const body = (await me.json()) as { success: boolean; data: { email: string; kycStatus: string } };
      expect(body.success).toBe(true);
      expect(body.data.email).toBe('demo@example.com');
      expect(body.data.kycStatus).toBe('unverified');

      const other = await fetch(`${credentials.mainUrl}/v1/accounts/me`, {
        headers: { authorization: `Bearer ${credentials.otherToken}` },
      });
      expect(((await other.json()) as { data: { email: string } }).data.email).not.toBe('demo@example.com');

      // The demo team has one user per role, and the roles hold: a member reads keys, a developer creates them.
      expect(credentials.tokens.owner).toBe(credentials.token);
      const main = (token: string, path: string, init: { method?: string; body?: unknown } = {}) =>
        fetch(`${credentials.mainUrl}${path}`, {
          method: init.method ?? 'GET',
          headers: {
            authorization: `Bearer ${token}`,
            'x-organization-id': credentials.organizationId,
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        });
      const newKey = { method: 'POST', body: { environment: 'test', name: 'Local start test' } };
      expect((await main(credentials.tokens.member, '/v1/api-keys')).status).toBe(200);
      expect((await main(credentials.tokens.member, '/v1/api-keys', newKey)).status).toBe(403);
      expect((await main(credentials.tokens.developer, '/v1/api-keys', newKey)).status).toBe(201);
      // A user signing up has no profile yet; the newcomer has one (and no organization).
      expect((await main(credentials.noProfileToken, '/v1/accounts/me')).status).toBe(404);
      const newcomer = await main(credentials.newUserToken, '/v1/accounts/me');
      expect(newcomer.status).toBe(200);
      expect(((await newcomer.json()) as { data: { email: string } }).data.email).toBe('newcomer@example.com');

      for (const url of [credentials.mainUrl, credentials.backendUrl]) {
        const openapi = await fetch(`${url}/openapi.json`);
        expect(openapi.status).toBe(200);
        expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
      }
      expect(credentials.liveApiKey).toMatch(/^sk_live_/);
      expect(credentials.testApiKey).toMatch(/^sk_test_/);
      expect(credentials.webhookSecrets.live).toMatch(/^whsec_/);
      expect(credentials.webhookSecrets.test).toMatch(/^whsec_/);
      expect(credentials.webhookSecrets.live).not.toBe(credentials.webhookSecrets.test);
      // They are the organization's real signing secrets: main-api's one-time reveal shows the same one.
      const revealed = await fetch(`${credentials.mainUrl}/v1/webhooks/endpoints/test/secret/reveal`, {
        method: 'POST',
        headers: { authorization: `Bearer ${credentials.token}`, 'x-organization-id': credentials.organizationId },
      });
      expect(revealed.status).toBe(200);
      expect(((await revealed.json()) as { data: { secret: string } }).data.secret).toBe(
        credentials.webhookSecrets.test,
      );

      // The demo wallets are credited, a test session's page opens, and the demo organization plays the platform.
      const backend = (key: string, path: string, init: RequestInit = {}) =>
        fetch(`${credentials.backendUrl}${path}`, {
          ...init,
          headers: { 'x-service-api-key': key, 'content-type': 'application/json', ...init.headers },
        });
      const walletOf = async (key: string) =>
        ((await (await backend(key, '/v1/wallet')).json()) as { data: { available: number; held: number } }).data;
      expect(await walletOf(credentials.liveApiKey)).toMatchObject({ available: 10_000 });
      expect(await walletOf(credentials.testApiKey)).toMatchObject({ available: 10_000 });
      const session = await backend(credentials.testApiKey, '/v1/verify/sessions', {
        method: 'POST',
        body: JSON.stringify({ type: 'kyc', externalEndUserId: 'someone' }),
      });
      expect(session.status).toBe(201);
      const { sessionId, verificationUrl } = (
        (await session.json()) as { data: { sessionId: string; verificationUrl: string } }
      ).data;
      expect(verificationUrl.startsWith(`${credentials.backendUrl}/session/`)).toBe(true);
      const hostedPage = await fetch(verificationUrl);
      expect(hostedPage.status).toBe(200);
      const pageHtml = await hostedPage.text();
      // The person is asked for consent before anything else.
      expect(pageHtml).toContain('I agree</button>');

      // A tester finishes it there: consent and the sandbox buttons are plain HTML forms posting the page's form
      // token back.
      const formToken = /name="token" value="([^"]+)"/.exec(pageHtml)?.[1];
      expect(formToken).toBeDefined();
      const press = async (action: 'agree' | 'submit' | 'approve') => {
        const answer = await fetch(verificationUrl, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: formToken!, action }),
        });
        return { status: answer.status, location: answer.headers.get('location') };
      };
      expect(await press('agree')).toEqual({ status: 303, location: `${sessionId}?notice=consent_recorded` });
      expect(await (await fetch(verificationUrl)).text()).toContain('Sandbox controls');
      expect(await press('submit')).toEqual({ status: 303, location: `${sessionId}?notice=submitted` });
      expect(await press('approve')).toEqual({ status: 303, location: `${sessionId}?notice=approved` });
      const verified = await backend(credentials.testApiKey, `/v1/verify/sessions/${sessionId}`);
      expect(((await verified.json()) as { data: { status: string } }).data.status).toBe('verified');
      // The 50 KES held when it was created are captured: gone from held, not back in available.
      expect(await walletOf(credentials.testApiKey)).toMatchObject({ available: 9_950, held: 0 });
      const platformSession = await backend(credentials.liveApiKey, '/v1/verify/sessions', {
        method: 'POST',
        body: JSON.stringify({ type: 'kyc', externalEndUserId: credentials.userId }),
      });
      expect(platformSession.status).toBe(201);
      // A live session waits for a reviewer, as in production: after consent its page has no sandbox buttons.
      const liveUrl = ((await platformSession.json()) as { data: { verificationUrl: string } }).data.verificationUrl;
      const liveToken = /name="token" value="([^"]+)"/.exec(await (await fetch(liveUrl)).text())?.[1];
      const liveConsent = await fetch(liveUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: liveToken ?? '', action: 'agree' }),
      });
      expect(liveConsent.headers.get('location')).toMatch(/\?notice=consent_recorded$/);
      const livePage = await fetch(liveUrl);
      expect(livePage.status).toBe(200);
      const livePageHtml = await livePage.text();
      expect(livePageHtml).toContain('id="session-status">Waiting for documents</p>');
      expect(livePageHtml).not.toContain('Sandbox controls');
      const kyc = await fetch(`${credentials.mainUrl}/v1/accounts/me`, {
        headers: { authorization: `Bearer ${credentials.token}` },
      });
      expect(((await kyc.json()) as { data: { kycStatus: string } }).data.kycStatus).toBe('pending');
      // The demo organization is the platform organization on main-api too: its reviewer opens the review queue,
      // its owner may not (reviewing is a role of its own).
      const queueAs = (token: string) =>
        fetch(`${credentials.mainUrl}/v1/reviews`, { headers: { authorization: `Bearer ${token}` } });
      expect((await queueAs(credentials.reviewerToken)).status).toBe(200);
      expect((await queueAs(credentials.token)).status).toBe(403);

      // The SDK demo page is served and listed, its origin is allowed for the demo organization's test sessions, and
      // the sessions it creates open framable and reporting to it.
      expect(first.output).toContain(`SDK demo     ${credentials.sdkDemoUrl}`);
      const demoPage = await fetch(`${credentials.sdkDemoUrl}/`);
      expect(await demoPage.text()).toContain("from '/sdk/index.js'");
      const demoOrigin = new URL(credentials.sdkDemoUrl).origin;
      const origins = await main(credentials.token, `/v1/organizations/${credentials.organizationId}/allowed-origins`);
      expect(((await origins.json()) as { data: { test: string[] } }).data.test).toEqual([demoOrigin]);
      // As the page's script asks (the browser sends the page's origin); another site's page is refused.
      const fromElsewhere = await fetch(`${credentials.sdkDemoUrl}/session`, {
        method: 'POST',
        headers: { origin: 'https://elsewhere.example' },
      });
      expect(fromElsewhere.status).toBe(403);
      const demoSession = await fetch(`${credentials.sdkDemoUrl}/session`, {
        method: 'POST',
        headers: { origin: demoOrigin },
      });
      const { verificationUrl: demoUrl } = (await demoSession.json()) as { verificationUrl: string };
      const opened = await fetch(`${demoUrl}?sdk=popup&origin=${encodeURIComponent(demoOrigin)}`);
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-security-policy')).toContain(`frame-ancestors ${demoOrigin};`);
      expect(opened.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
      expect(await opened.text()).toContain('<input type="hidden" name="origin"');
      // Canceled, so its hold goes back to the wallet the restart below checks.
      const demoSessionId = demoUrl.split('/').at(-1);
      const canceled = await backend(credentials.testApiKey, `/v1/verify/sessions/${demoSessionId}/cancel`, {
        method: 'POST',
      });
      expect(canceled.status).toBe(200);

      // A profile change survives a restart; so do the API keys.
      const patch = await fetch(`${credentials.mainUrl}/v1/accounts/me`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${credentials.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Restarted' }),
      });
      expect(patch.status).toBe(200);
      await stop(first);

      const second = await start(dataDir);
      running.push(second);
      expect(second.credentials.liveApiKey).toBe(credentials.liveApiKey);
      expect(second.credentials.webhookSecrets).toEqual(credentials.webhookSecrets);
      // The demo credit is made once: the restart finds it and credits nothing more.
      const testWallet = await fetch(`${second.credentials.backendUrl}/v1/wallet`, {
        headers: { 'x-service-api-key': second.credentials.testApiKey },
      });
      expect(((await testWallet.json()) as { data: { available: number; held: number } }).data).toMatchObject({
        available: 9_950,
        held: 0,
      });
      const again = await fetch(`${second.credentials.mainUrl}/v1/accounts/me`, {
        headers: { authorization: `Bearer ${second.credentials.token}` },
      });
      expect(((await again.json()) as { data: { name: string } }).data.name).toMatch(/^Restarted /);
      await stop(second);

      // --fresh starts empty: the old keys are gone and new ones are printed.
      const fresh = await start(dataDir, ['--', '--fresh']);
      running.push(fresh);
      expect(fresh.credentials.liveApiKey).not.toBe(credentials.liveApiKey);
      const reset = await fetch(`${fresh.credentials.mainUrl}/v1/accounts/me`, {
        headers: { authorization: `Bearer ${fresh.credentials.token}` },
      });
      expect(((await reset.json()) as { data: { name: string } }).data.name).not.toMatch(/^Restarted /);
      await stop(fresh);
    },
    TEST_DEADLINE_MS,
  );
});

describe.skipIf(missing(postgresServer, redisServer))(
  'the local start with DATABASE_URL and REDIS_URL (needs real PostgreSQL and Redis)',
  () => {
    it(
      'runs each service as its own process on them',
      async () => {
        showTranscriptOnFailure();
        const database = await createTestDatabase();
        const dataDir = mkdtempSync(path.join(tmpdir(), 'local-start-pg-'));
        let started: Started | undefined;
        try {
          started = await start(dataDir, [], {
            DATABASE_URL: connectionUrlOf(database.db)!,
            REDIS_URL: process.env.REDIS_URL!,
          });
          const { credentials, output } = started;
          expect(output).toContain('Each service is running as its own process');

          // Only a service started by its own server.ts checks Redis: the embedded mode has none.
          for (const url of [credentials.mainUrl, credentials.backendUrl]) {
            const ready = await fetch(`${url}/readyz`);
            expect(await ready.json()).toMatchObject({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
          }
          const me = await fetch(`${credentials.mainUrl}/v1/accounts/me`, {
            headers: { authorization: `Bearer ${credentials.token}` },
          });
          expect(((await me.json()) as { data: { email: string } }).data.email).toBe('demo@example.com');
          const wallet = await fetch(`${credentials.backendUrl}/v1/wallet`, {
            headers: { 'x-service-api-key': credentials.testApiKey },
          });
          expect(((await wallet.json()) as { data: { available: number } }).data.available).toBeGreaterThan(0);
        } finally {
          if (started) await stop(started);
          rmSync(dataDir, { recursive: true, force: true });
          await database.close();
        }
      },
      TEST_DEADLINE_MS,
    );
  },
);
