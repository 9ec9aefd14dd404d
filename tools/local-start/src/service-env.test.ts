import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadBackendApiConfig } from '@platform/backend-api';
import { loadMainApiConfig } from '@platform/main-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { printBanner } from './banner.js';
import type { LocalCredentials } from './credentials.js';
import { loadOrCreateSecrets } from './data-dir.js';
import { allowsPrivateTargets, backendApiEnv, type LocalSettings, mainApiEnv } from './service-env.js';
import { smileIdEnv, startLocalSmileId, wantsFakeSmileId } from './smile-id.js';

const settings: LocalSettings = {
  host: '127.0.0.1',
  mainPort: '0',
  backendPort: '0',
  logLevel: 'warn',
  jwtSecret: 'x'.repeat(32),
  issuer: 'local',
  audience: 'local',
  dataDir: '/tmp/local-start-test',
  documentKey: 'local:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
  platformOrganizationId: '00000000-0000-4000-8000-000000000000',
};

const credentials = {
  mainUrl: 'http://localhost:1',
  backendUrl: 'http://localhost:2',
  userId: 'user_demo',
  token: 't_owner',
  organizationId: 'o',
  tokens: {
    owner: 't_owner',
    admin: 't_admin',
    developer: 't_developer',
    billing: 't_billing',
    member: 't_member',
    reviewer: 't_reviewer',
    finance: 't_finance',
  },
  reviewerToken: 't_reviewer',
  newUserToken: 't_new',
  noProfileToken: 't_signup',
  otherUserId: 'u',
  otherToken: 't2',
  otherOrganizationId: 'o2',
  liveApiKey: 'sk_live_x',
  testApiKey: 'sk_test_x',
  webhookSecrets: { live: 'whsec_a', test: 'whsec_b' },
  sdkDemoUrl: 'http://localhost:3',
  dashboardUrl: 'http://localhost:1/dashboard',
  identityProviderUrl: 'http://localhost:4',
} satisfies LocalCredentials;

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function bannerText(fakeSmileIdUrl?: string): string {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  printBanner(credentials, '/tmp/credentials.json', 'embedded', '/tmp/local-start-test/outbox', fakeSmileIdUrl);
  return log.mock.calls.map((call) => call.join(' ')).join('\n');
}

describe('callbacks to private addresses on the local start', () => {
  it('are allowed by default, and the banner says how to refuse them', () => {
    vi.stubEnv('WEBHOOK_ALLOW_PRIVATE_TARGETS', undefined);
    expect(mainApiEnv(settings).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe('true');
    expect(backendApiEnv(settings).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe('true');
    expect(allowsPrivateTargets()).toBe(true);
    expect(bannerText()).toContain(
      'Callbacks may go to this machine and other private addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=true;',
    );
  });

  it.each(['false', '0', 'no', 'FALSE'])(
    'are refused when the caller sets WEBHOOK_ALLOW_PRIVATE_TARGETS=%s, and the banner says so',
    (value) => {
      vi.stubEnv('WEBHOOK_ALLOW_PRIVATE_TARGETS', value);
      expect(mainApiEnv(settings).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(value);
      expect(backendApiEnv(settings).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(value);
      expect(allowsPrivateTargets()).toBe(false);
      expect(bannerText()).toContain(
        `Callbacks go only to public https addresses, as in production (WEBHOOK_ALLOW_PRIVATE_TARGETS=${value}).`,
      );
    },
  );

  it('treats an empty value as unset', () => {
    vi.stubEnv('WEBHOOK_ALLOW_PRIVATE_TARGETS', '');
    expect(mainApiEnv(settings).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe('true');
  });
});

describe('the banner', () => {
  it("prints a token for each role of the demo team, the new user's and the signing-up user's", () => {
    const lines = bannerText().split('\n');
    const lineWith = (text: string) => lines.find((line) => line.includes(text));
    expect(lineWith('t_owner')).toMatch(/^ {2}bearer token +t_owner$/);
    for (const role of ['admin', 'developer', 'billing', 'member'] as const) {
      expect(lineWith(`t_${role}`)).toMatch(new RegExp(`^ {4}${role} +t_${role}$`));
    }
    expect(lineWith('t_new')).toBeDefined();
    expect(lineWith('t_signup')).toBeDefined();
  });

  it('lists the SDK demo page with the services', () => {
    const lines = bannerText().split('\n');
    expect(lines.find((line) => line.includes('http://localhost:3 '))).toMatch(
      /^ {2}SDK demo +http:\/\/localhost:3 +a page that opens test sessions with @platform\/verify-web/,
    );
  });
});

describe('emails on the local start', () => {
  it('print the dashboard and the local identity provider', () => {
    expect(bannerText()).toContain('dashboard    http://localhost:1/dashboard');
    expect(bannerText()).toContain('identity provider http://localhost:4');
  });

  it('are written to <data dir>/outbox, and the banner says where', () => {
    vi.stubEnv('MAIL_OUTBOX_DIR', undefined);
    vi.stubEnv('SMTP_URL', undefined);
    expect(mainApiEnv(settings).MAIL_OUTBOX_DIR).toBe('/tmp/local-start-test/outbox');
    expect(bannerText()).toContain(
      'Emails (invitations, sign-in codes) are written to /tmp/local-start-test/outbox as .eml files',
    );
  });

  it('go through SMTP_URL when the caller sets it', () => {
    vi.stubEnv('SMTP_URL', 'smtp://127.0.0.1:1025');
    expect(mainApiEnv(settings).SMTP_URL).toBe('smtp://127.0.0.1:1025');
    expect(bannerText()).toContain(
      'Emails (invitations) go through SMTP_URL; sign-in codes are written to /tmp/local-start-test/outbox',
    );
  });
});

describe('verification decisions on the local start', () => {
  it('are the sandbox buttons for test sessions and a reviewer for live ones, with no live sandbox', () => {
    vi.stubEnv('VERIFICATION_DECISIONS', undefined);
    vi.stubEnv('HOSTED_PAGE_LIVE_SANDBOX', undefined);
    const env = backendApiEnv(settings);
    expect(env.VERIFICATION_DECISIONS).toBe('test:*=sandbox,live:*=manual');
    expect(env.HOSTED_PAGE_LIVE_SANDBOX).toBeUndefined();
    expect(loadBackendApiConfig(env).verification.liveSandbox).toBe(false);
    expect(bannerText()).toContain(
      'Test sessions are decided with those buttons, live sessions by a reviewer ' +
        '(VERIFICATION_DECISIONS=test:*=sandbox,live:*=manual).',
    );
  });

  it("are the caller's when set, and the banner shows them", () => {
    vi.stubEnv('VERIFICATION_DECISIONS', 'live:*=sandbox');
    vi.stubEnv('HOSTED_PAGE_LIVE_SANDBOX', 'true');
    const env = backendApiEnv(settings);
    expect(env.VERIFICATION_DECISIONS).toBe('live:*=sandbox');
    expect(env.HOSTED_PAGE_LIVE_SANDBOX).toBe('true');
    expect(() => loadBackendApiConfig(env)).not.toThrow();
    expect(bannerText()).toContain('Sessions are decided as VERIFICATION_DECISIONS=live:*=sandbox says');
  });
});

describe('Smile ID on the local start', () => {
  it('is a fake started for the run with VERIFICATION_PROVIDER_KYC=smile_id, deciding kyc sessions; the banner prints its URL', async () => {
    vi.stubEnv('VERIFICATION_DECISIONS', undefined);
    vi.stubEnv('SMILE_ID_BASE_URL', undefined);
    vi.stubEnv('VERIFICATION_PROVIDER_KYC', 'smile_id');
    expect(wantsFakeSmileId()).toBe(true);
    const smileId = await startLocalSmileId();
    try {
      expect(smileId.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const env = backendApiEnv({ ...settings, smileIdEnv: smileIdEnv(smileId) });
      expect(env.VERIFICATION_DECISIONS).toBe('test:kyc=smile_id,live:kyc=smile_id,test:kyb=sandbox,live:kyb=manual');
      const config = loadBackendApiConfig(env);
      expect(config.smileId.baseUrl).toBe(smileId.url);
      expect(config.smileId.apiKey).toBe(smileId.apiKey);
      // The fake answers, and refuses a request it cannot verify.
      const refused = await fetch(`${smileId.url}/job_status`, { method: 'POST', body: '{}' });
      expect(refused.status).toBe(401);
      expect(bannerText(smileId.url)).toContain(`A fake Smile ID runs at ${smileId.url}`);
    } finally {
      await smileId.close();
    }
  });

  it('is not started otherwise, nor when the caller names a Smile ID of their own', () => {
    vi.stubEnv('VERIFICATION_PROVIDER_KYC', undefined);
    vi.stubEnv('VERIFICATION_DECISIONS', undefined);
    expect(wantsFakeSmileId()).toBe(false);
    vi.stubEnv('VERIFICATION_DECISIONS', 'live:kyc=smile_id');
    expect(wantsFakeSmileId()).toBe(true);
    vi.stubEnv('SMILE_ID_BASE_URL', 'https://testapi.smileidentity.com/v1');
    expect(wantsFakeSmileId()).toBe(false);
    expect(smileIdEnv(undefined)).toEqual({});
  });
});

describe('identity documents on the local start', () => {
  it('are encrypted under a key kept in secrets.json, in the documents folder of the data folder', () => {
    vi.stubEnv('DOCUMENT_ENCRYPTION_KEY', undefined);
    const dir = mkdtempSync(path.join(tmpdir(), 'local-start-secrets-'));
    try {
      // A data folder from before the document key keeps its signing secret and gets a key added.
      writeFileSync(path.join(dir, 'secrets.json'), JSON.stringify({ jwtSecret: 'kept-signing-secret' }));
      const secrets = loadOrCreateSecrets(dir);
      expect(secrets.jwtSecret).toBe('kept-signing-secret');
      expect(secrets.documentKey).toMatch(/^local:[A-Za-z0-9+/]{43}=$/);
      expect(loadOrCreateSecrets(dir)).toEqual(secrets);
      expect(JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8'))).toEqual(secrets);

      const env = backendApiEnv({ ...settings, documentKey: secrets.documentKey });
      expect(env.DOCUMENT_ENCRYPTION_KEY).toBe(secrets.documentKey);
      expect(env.DOCUMENT_LOCAL_DIR).toBe(path.join(settings.dataDir, 'documents'));
      // As production reads it: on PostgreSQL too, where the key is required.
      const config = loadBackendApiConfig({ ...env, DATABASE_URL: 'postgres://local@127.0.0.1:5432/platform' });
      expect(config.documents.storage.kind).toBe('local');
      const [keyId, keyMaterial] = secrets.documentKey.split(':');
      expect(config.documents.keyring?.current.id).toBe(keyId);
      expect(config.documents.keyring?.current.key.export().toString('base64')).toBe(keyMaterial);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("are read by main-api's reviewers from the same key and folder, in the demo organization as the platform", () => {
    vi.stubEnv('DOCUMENT_ENCRYPTION_KEY', undefined);
    vi.stubEnv('PLATFORM_ORGANIZATION_ID', undefined);
    const main = mainApiEnv(settings);
    const backend = backendApiEnv(settings);
    for (const name of [
      'DOCUMENT_ENCRYPTION_KEY',
      'DOCUMENT_STORAGE',
      'DOCUMENT_LOCAL_DIR',
      'PLATFORM_ORGANIZATION_ID',
    ]) {
      expect(main[name], name).toBe(backend[name]);
    }
    expect(main.PLATFORM_ORGANIZATION_ID).toBe(settings.platformOrganizationId);
    const config = loadMainApiConfig({ ...main, DATABASE_URL: 'postgres://local@127.0.0.1:5432/platform' });
    expect(config.platformOrganizationId).toBe(settings.platformOrganizationId);
    expect(config.documents).toEqual(
      loadBackendApiConfig({ ...backend, DATABASE_URL: 'postgres://local@127.0.0.1:5432/platform' }).documents,
    );
  });
});
