import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { expectPhoneFriendly } from '#test-browser';
import { paperFile, photo } from './documents.js';
import type { Callback, RunningPlatform } from './platform.js';

// Steps the journeys share: the customer's API calls, the reviewer's console, the callbacks.

interface CreatedSession {
  sessionId: string;
  verificationUrl: string;
}

export async function backendCall(
  platform: RunningPlatform,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> & { data?: unknown } }> {
  const response = await fetch(`${platform.backendUrl}${path}`, {
    method,
    headers: {
      'x-service-api-key': apiKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'POST' && path === '/v1/verify/sessions' ? { 'idempotency-key': crypto.randomUUID() } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as never };
}

export async function createSession(platform: RunningPlatform, apiKey: string, body: Record<string, unknown>) {
  const created = await backendCall(platform, apiKey, 'POST', '/v1/verify/sessions', body);
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return created.json.data as CreatedSession;
}

/** POST /v1/verify/sessions/:id/documents with `kind` and one file, as a customer's server sends it. */
export async function uploadDocument(
  platform: RunningPlatform,
  apiKey: string,
  sessionId: string,
  kind: string,
  bytes: Buffer,
  contentType = 'application/octet-stream',
) {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: contentType }), 'document');
  const response = await fetch(`${platform.backendUrl}/v1/verify/sessions/${sessionId}/documents`, {
    method: 'POST',
    headers: { 'x-service-api-key': apiKey },
    body: form,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> & { data?: unknown } };
}

export async function mainCall(
  platform: RunningPlatform,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> & { data?: unknown } }> {
  const response = await fetch(`${platform.mainUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as never };
}

/** Polls `read` until `done` holds of its result (the delivery worker and the page refresh run on their own time). */
export async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The callbacks received for `sessionId`, each verified with the endpoint's secret (a bad signature throws). */
export function verifiedCallbacks(callbacks: Callback[], secret: string, sessionId: string) {
  const webhook = new Webhook(secret);
  return callbacks
    .map((callback) => webhook.verify(callback.body, callback.headers) as { type: string; data: { sessionId: string } })
    .filter((event) => event.data.sessionId === sessionId);
}

/** Signs the reviewer in to the console with their access token. */
export async function signInToConsole(platform: { mainUrl: string }, page: Page, token: string): Promise<void> {
  await page.goto(`${platform.mainUrl}/review`);
  await page.getByLabel('Access token').fill(token);
  await Promise.all([
    page.waitForURL(`${platform.mainUrl}/review`),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Waiting for review');
}

/**
 * Whether `url` is the session page at `verificationUrl` with exactly the query `query`, in any order: each step of
 * the hosted page is a new document, and every one must keep what the page was opened with (the SDK's `sdk` and
 * `origin`).
 */
function isSessionPage(url: URL, verificationUrl: string, query: Record<string, string>): boolean {
  const sorted = (entries: Iterable<[string, string]>) => JSON.stringify([...entries].sort());
  return (
    `${url.origin}${url.pathname}` === verificationUrl && sorted(url.searchParams) === sorted(Object.entries(query))
  );
}

/**
 * The person's part of a KYC session on the hosted page, already open in `phone`: agrees to the consent notice,
 * picks a national ID with `documentNumber`, uploads the front, back and a selfie (fixture photos), reviews and
 * submits, each step at a phone's size. `keep` is the query each page must keep (the SDK's), `{}` when opened
 * directly. Ends on the processing page.
 */
export async function submitKycFromPhone(
  phone: Page,
  verificationUrl: string,
  { documentNumber, keep = {} }: { documentNumber: string; keep?: Record<string, string> },
): Promise<void> {
  const step = (query: Record<string, string>) => (url: URL) =>
    isSessionPage(url, verificationUrl, { ...keep, ...query });
  await Promise.all([
    phone.waitForURL(step({ notice: 'consent_recorded' })),
    phone.getByRole('button', { name: 'I agree' }).click(),
  ]);
  await phone.getByLabel('Type of ID document').selectOption('national_id');
  await phone.getByLabel('ID document number').fill(documentNumber);
  await phone.getByLabel('First name').fill('Wanjiru');
  await phone.getByLabel('Last name').fill('Kamau');
  await phone.getByLabel('Date of birth').fill('1990-05-31');
  const png = (marker: string) =>
    photo(marker).then((buffer) => ({ name: `${marker}.png`, mimeType: 'image/png', buffer }));
  await phone.getByLabel('Front of the ID document').setInputFiles(await png('FRONT'));
  await phone.getByLabel('Back of the ID document').setInputFiles(await png('BACK'));
  await phone.getByLabel('A selfie').setInputFiles(await png('SELFIE'));
  await Promise.all([
    phone.waitForURL(step({ step: 'review' })),
    phone.getByRole('button', { name: 'Upload and review' }).click(),
  ]);
  await expectPhoneFriendly(phone);
  await Promise.all([
    phone.waitForURL(step({ notice: 'submitted' })),
    phone.getByRole('button', { name: 'Submit' }).click(),
  ]);
  expect(await phone.locator('#session-status').textContent()).toBe('Processing');
}

/** What a business types and sends on the KYB page: each paper a PDF with its marker, one per director. */
export interface KybPapers {
  registrationNumber: string;
  companyName: string;
  cr12: string;
  directors: string[];
}

/**
 * The business's part of a KYB session on the hosted page, already open in `page` at `verificationUrl`: agrees to
 * the consent notice, types the registration number and company name, uploads the certificate of incorporation, the
 * CR12, the KRA PIN certificate and each director's ID (generated PDFs), then submits from the review step
 * (`atReview` runs there first). Ends on the submitted page.
 */
export async function submitKybPapers(
  page: Page,
  verificationUrl: string,
  papers: KybPapers,
  atReview: (page: Page) => Promise<void> = async () => undefined,
): Promise<void> {
  await Promise.all([
    page.waitForURL(`${verificationUrl}?notice=consent_recorded`),
    page.getByRole('button', { name: 'I agree' }).click(),
  ]);
  await page.getByLabel('Registration number').fill(papers.registrationNumber);
  await page.getByLabel('Company name').fill(papers.companyName);
  await page.getByLabel('Certificate of incorporation').setInputFiles(await paperFile('INCORPORATION'));
  await page.getByLabel('CR12').setInputFiles(await paperFile(papers.cr12));
  await page.getByLabel('KRA PIN certificate').setInputFiles(await paperFile('KRA-PIN'));
  await page
    .getByLabel('National ID card or passport of each director')
    .setInputFiles(await Promise.all(papers.directors.map(paperFile)));
  await Promise.all([
    page.waitForURL(/\?step=review$/),
    page.getByRole('button', { name: 'Upload and review' }).click(),
  ]);
  await atReview(page);
  await Promise.all([
    page.waitForURL(`${verificationUrl}?notice=submitted`),
    page.getByRole('button', { name: 'Submit' }).click(),
  ]);
}
