import { randomUUID } from 'node:crypto';
import type { BenchFixture } from './setup/seed.js';

export type ServiceName = 'main-api' | 'backend-api';

/** One HTTP request as the load generator sends it. */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Endpoint {
  /** Short id, also the path prefix of the endpoint's routes on the baseline servers. */
  id: string;
  /** What the table shows, e.g. `GET /v1/accounts/me`. */
  label: string;
  service: ServiceName;
  /** Reads and writes have different targets (issue 7). */
  kind: 'read' | 'write';
  /** The next request to send; requests differ when the endpoint needs fresh idempotency keys or names. */
  request(): BenchRequest;
  /** Whether every call builds a new request (autocannon's setupRequest), rather than repeating one. */
  varies: boolean;
  /** Sent once before anything is measured or recorded (the first execution a replay endpoint replays). */
  prime?: BenchRequest;
}

const IDEMPOTENCY_HEADER = 'x-idempotency-key';

/** The six endpoints of issue 7, with the credentials of `fixture`. */
export function benchEndpoints(fixture: BenchFixture, token: string): Endpoint[] {
  const bearer = { authorization: `Bearer ${token}` };
  const apiKey = (secret: string) => ({ 'x-service-api-key': secret });
  const json = { 'content-type': 'application/json' };
  const sessionBody = JSON.stringify({ type: 'kyc', externalEndUserId: 'bench-end-user', appName: 'Bench' });
  const replayed: BenchRequest = {
    method: 'POST',
    path: '/v1/verify/sessions',
    headers: { ...apiKey(fixture.apiKeys.sessionReplay), ...json, [IDEMPOTENCY_HEADER]: randomUUID() },
    body: sessionBody,
  };
  let folderCount = 0;

  return [
    {
      id: 'accounts-me',
      label: 'GET /v1/accounts/me',
      service: 'main-api',
      kind: 'read',
      varies: false,
      request: () => ({ method: 'GET', path: '/v1/accounts/me', headers: bearer }),
    },
    {
      id: 'notifications',
      label: 'GET /v1/notifications',
      service: 'main-api',
      kind: 'read',
      varies: false,
      request: () => ({ method: 'GET', path: '/v1/notifications', headers: bearer }),
    },
    {
      id: 'upgrade-preview',
      label: 'GET /v1/billing/upgrade/preview',
      service: 'main-api',
      kind: 'read',
      varies: false,
      request: () => ({
        method: 'GET',
        path: '/v1/billing/upgrade/preview?newPlan=scale&newSeats=40&newCycle=monthly',
        headers: { ...bearer, 'x-organization-id': fixture.organizationId },
      }),
    },
    {
      id: 'session-create',
      label: 'POST /v1/verify/sessions',
      service: 'backend-api',
      kind: 'write',
      varies: true,
      request: () => ({
        method: 'POST',
        path: '/v1/verify/sessions',
        headers: { ...apiKey(fixture.apiKeys.sessions), ...json, [IDEMPOTENCY_HEADER]: randomUUID() },
        body: sessionBody,
      }),
    },
    {
      id: 'session-replay',
      label: 'POST /v1/verify/sessions (replay)',
      service: 'backend-api',
      kind: 'write',
      varies: false,
      prime: replayed,
      request: () => replayed,
    },
    {
      id: 'folder-create',
      label: 'POST /v1/drive/folders',
      service: 'backend-api',
      kind: 'write',
      varies: true,
      request: () => {
        folderCount += 1;
        return {
          method: 'POST',
          path: '/v1/drive/folders',
          headers: { ...apiKey(fixture.apiKeys.folders), ...json, [IDEMPOTENCY_HEADER]: randomUUID() },
          body: JSON.stringify({ name: `Bench ${folderCount} ${randomUUID().slice(0, 8)}` }),
        };
      },
    },
  ];
}

/** The read endpoint each service's memory is watched on over a long run. */
export function memoryProbeRequests(fixture: BenchFixture, token: string): Record<ServiceName, BenchRequest> {
  return {
    'main-api': { method: 'GET', path: '/v1/accounts/me', headers: { authorization: `Bearer ${token}` } },
    'backend-api': { method: 'GET', path: '/v1/wallet', headers: { 'x-service-api-key': fixture.apiKeys.reads } },
  };
}

/** A request's inputs by slot name (`header:<name>`, `body:<field>`), as SQL templates refer to them. */
export function inputsOf(request: BenchRequest): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) inputs[`header:${name.toLowerCase()}`] = value;
  if (request.body !== undefined) {
    const body = JSON.parse(request.body) as Record<string, unknown>;
    for (const [field, value] of Object.entries(body)) if (typeof value === 'string') inputs[`body:${field}`] = value;
  }
  return inputs;
}
