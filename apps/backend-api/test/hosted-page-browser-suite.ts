import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DatabaseHandle } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import type { DocumentVault } from '@platform/document-vault';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type Browser, launchBrowser } from '#test-browser';
import type { BackendApp } from '../src/app.js';
import { buildTestApp, createTestOrganization, type TestOrganization } from './app-fixtures.js';
import { temporaryVault } from './document-fixtures.js';
import { fundWallet } from './verification-fixtures.js';

// The page is opened at its real verificationUrl; Chromium resolves this host to the test server.
export const VERIFY_HOST = 'verify.test';

/**
 * A suite of the hosted page in headless Chromium, without JavaScript (src/modules/verification/hosted-page/
 * *browser.test.ts): one app listening on a port, Acme with funded wallets, the customer's server that records
 * callbacks, and a browser; made before the first test, closed after the last. Read its fields in tests.
 */
export function hostedPageBrowserSuite() {
  let database: DatabaseHandle;
  let app: BackendApp;
  let acme: TestOrganization;
  let launched: Browser;
  let browser: BrowserContext;
  // The customer's server: records every callback it receives.
  let receiver: Server;
  let callbackUrl: string;
  const callbacks: Array<{ body: string; headers: Record<string, string> }> = [];
  let removeVault: () => Promise<void>;
  let documentVault: DocumentVault;
  // The app's clock: real time, moved on by a test that needs a later moment without waiting for it.
  let clockOffsetMs = 0;
  const now = () => new Date(Date.now() + clockOffsetMs);

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        callbacks.push({ body, headers: request.headers as Record<string, string> });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
    const { vault, remove } = await temporaryVault();
    removeVault = remove;
    documentVault = vault;
    app = await buildTestApp(database, {
      now,
      vault,
      env: { VERIFY_URL: `http://${VERIFY_HOST}`, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    acme = await createTestOrganization(database.db, 'Acme');
    await fundWallet(database.db, acme.id, 'test', 1_000);
    await fundWallet(database.db, acme.id, 'live', 1_000);

    // The page must work with plain forms: no script runs in this browser.
    launched = await launchBrowser({ hostRules: [`MAP ${VERIFY_HOST} 127.0.0.1:${port}`] });
    browser = launched.context;
  });
  afterAll(async () => {
    await launched?.close();
    await app?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await database?.close();
    await removeVault?.();
  });

  return {
    get database() {
      return database;
    },
    get app() {
      return app;
    },
    get acme() {
      return acme;
    },
    /** The app's document vault. */
    get vault() {
      return documentVault;
    },
    get browser() {
      return browser;
    },
    get callbackUrl() {
      return callbackUrl;
    },
    callbacks,
    /** The app's clock. */
    now,
    /** Moves the app's clock on (or back) from real time by this many milliseconds. */
    set clockOffsetMs(offset: number) {
      clockOffsetMs = offset;
    },
    get clockOffsetMs() {
      return clockOffsetMs;
    },
  };
}
