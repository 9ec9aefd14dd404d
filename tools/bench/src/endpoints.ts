import { randomUUID } from 'node:crypto';
import { routeParams } from './baselines/spec.js';
import type { BenchFixture } from './setup/seed.js';
import { inputsOf } from './sql/inputs.js';

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
  /**
   * The route when every request names another resource in its path (`/v1/reviews/:sessionId/decision`): the
   * baselines serve the pattern, and its parameters are request inputs of the SQL. Absent: the request's path.
   */
  route?: string;
  /** The next request to send; requests differ when the endpoint needs fresh idempotency keys or names. */
  request(): BenchRequest;
  /** Whether every call builds a new request (autocannon's setupRequest), rather than repeating one. */
  varies: boolean;
  /**
   * A request like request()'s that uses up nothing seeded, for the bare node:http baseline, which reads nothing;
   * absent: request() itself.
   */
  requestShape?(): BenchRequest;
  /**
   * Sent once each to the service before it is measured, and again to the recording copies before they record:
   * the first execution a replay endpoint replays, or one request per credential an endpoint takes turns with, so
   * that what is recorded is each credential's steady state (what an instance remembers per organization, such as
   * its price, included). Asked for each time, so requests that must be new (an idempotency key) are new each time.
   */
  prime?(): BenchRequest[];
  /** Why the endpoint could not be given fresh requests throughout (its seeded supply ran out); undefined if it could. */
  shortage?(): string | undefined;
}

/** The ids of the rows the targets name (report/targets.ts). */
export const ENDPOINT_IDS = {
  accountsMe: 'accounts-me',
  notifications: 'notifications',
  upgradePreview: 'upgrade-preview',
  sessionCreateOneOrganization: 'session-create-one-org',
  sessionCreateManyOrganizations: 'session-create-100-orgs',
  sessionReplay: 'session-replay',
  reviewDecision: 'review-decision',
} as const;

const IDEMPOTENCY_HEADER = 'x-idempotency-key';
/** Lists are read a page of 50 at a time (issue 21). */
const LIST_PAGE_SIZE = 50;

/** Bearer tokens of the bench's users: the measured member, and the platform organization's reviewer. */
export interface BenchTokens {
  member: string;
  reviewer: string;
  /** The member's browser signed in to the dashboard, on the organization's live data: a `Cookie` header. */
  memberDashboard: string;
}

/**
 * The endpoints of issue 7 and issue 21, with the credentials of `fixture`. Reads first, then writes; a write
 * that spends seeded rows (decisions) takes them in order and reports a shortage if a run needs more.
 */
export function benchEndpoints(fixture: BenchFixture, tokens: BenchTokens): Endpoint[] {
  const bearer = { authorization: `Bearer ${tokens.member}` };
  const apiKey = (secret: string) => ({ 'x-service-api-key': secret });
  const json = { 'content-type': 'application/json' };
  const sessionBody = JSON.stringify({ type: 'kyc', externalEndUserId: 'bench-end-user', appName: 'Bench' });
  const createSession = (secret: string): BenchRequest => ({
    method: 'POST',
    path: '/v1/verify/sessions',
    headers: { ...apiKey(secret), ...json, [IDEMPOTENCY_HEADER]: randomUUID() },
    body: sessionBody,
  });
  const replayed = createSession(fixture.apiKeys.sessionReplay);
  const walletBalance: BenchRequest = { method: 'GET', path: '/v1/wallet', headers: apiKey(fixture.apiKeys.reads) };
  const customers = fixture.customers;
  let customerTurn = 0;
  let folderCount = 0;
  const awaitingReview = supplyOf(
    fixture.sessionsAwaitingReview,
    'sessions awaiting review',
    'BENCH_DECISION_SESSIONS',
  );
  const decide = (sessionId: string): BenchRequest => ({
    method: 'POST',
    path: `/v1/reviews/${sessionId}/decision`,
    headers: { authorization: `Bearer ${tokens.reviewer}`, ...json },
    body: JSON.stringify({ decision: 'verified' }),
  });

  return [
    {
      id: ENDPOINT_IDS.accountsMe,
      label: 'GET /v1/accounts/me',
      service: 'main-api',
      kind: 'read',
      varies: false,
      request: () => ({ method: 'GET', path: '/v1/accounts/me', headers: bearer }),
    },
    {
      id: ENDPOINT_IDS.notifications,
      label: 'GET /v1/notifications',
      service: 'main-api',
      kind: 'read',
      varies: false,
      request: () => ({ method: 'GET', path: '/v1/notifications', headers: bearer }),
    },
    {
      id: ENDPOINT_IDS.upgradePreview,
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
      id: 'wallet-transactions',
      label: `GET /v1/wallet/transactions (${LIST_PAGE_SIZE} a page)`,
      service: 'backend-api',
      kind: 'read',
      varies: false,
      request: () => ({
        method: 'GET',
        path: `/v1/wallet/transactions?limit=${LIST_PAGE_SIZE}`,
        headers: apiKey(fixture.apiKeys.statement),
      }),
    },
    {
      // The balance customers poll; primed, so the wallet exists before the SQL is recorded (a first look creates
      // it) and both sides read it as every later poll does (docs/decisions.md#polled-reads-are-prepared-statements).
      id: 'wallet',
      label: 'GET /v1/wallet',
      service: 'backend-api',
      kind: 'read',
      varies: false,
      prime: () => [walletBalance],
      request: () => walletBalance,
    },
    {
      id: 'payments',
      label: `GET /v1/billing/payments (${LIST_PAGE_SIZE} a page)`,
      service: 'main-api',
      kind: 'read',
      varies: false,
      request: () => ({
        method: 'GET',
        path: `/v1/billing/payments?limit=${LIST_PAGE_SIZE}`,
        headers: { ...bearer, 'x-organization-id': fixture.organizationId },
      }),
    },
    {
      // The dashboard's Verifications page: the page guard (session, profile, memberships) and a page of 50 of the
      // organization's live sessions, rendered as HTML (docs/decisions.md#dashboard-pages).
      id: 'dashboard-verifications',
      label: `GET /dashboard/verifications (${LIST_PAGE_SIZE} rows)`,
      service: 'main-api',
      kind: 'read',
      varies: false,
      request: () => ({ method: 'GET', path: '/dashboard/verifications', headers: { cookie: tokens.memberDashboard } }),
    },
    {
      // Many customers at once: each request is the next organization's, with its own key and wallet.
      id: ENDPOINT_IDS.sessionCreateManyOrganizations,
      label: `POST /v1/verify/sessions (${customers.length} organizations)`,
      service: 'backend-api',
      kind: 'write',
      varies: true,
      prime: () => customers.map((customer) => createSession(customer.apiKey)),
      request: () => {
        const customer = customers[customerTurn % customers.length]!;
        customerTurn += 1;
        return createSession(customer.apiKey);
      },
    },
    {
      // One customer's burst: every request holds from the same wallet (the hot wallet).
      id: ENDPOINT_IDS.sessionCreateOneOrganization,
      label: 'POST /v1/verify/sessions (one organization)',
      service: 'backend-api',
      kind: 'write',
      varies: true,
      request: () => createSession(fixture.apiKeys.sessions),
    },
    {
      id: ENDPOINT_IDS.sessionReplay,
      label: 'POST /v1/verify/sessions (replay)',
      service: 'backend-api',
      kind: 'write',
      varies: false,
      prime: () => [replayed],
      request: () => replayed,
    },
    {
      // A decision that captures the held price: a reviewer verifies a session waiting for review, a fresh one
      // each time, the sessions taking turns over the customers' wallets (docs/decisions.md#bench-decision-row).
      id: ENDPOINT_IDS.reviewDecision,
      label: 'POST /v1/reviews/:sessionId/decision (verified)',
      service: 'main-api',
      kind: 'write',
      varies: true,
      route: '/v1/reviews/:sessionId/decision',
      request: () => decide(awaitingReview.next()),
      requestShape: () => decide(randomUUID()),
      shortage: () => awaitingReview.shortage(),
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

/** A request's inputs by slot name, as SQL templates refer to them (sql/inputs.ts). */
export function requestInputs(endpoint: Pick<Endpoint, 'route'>, request: BenchRequest): Record<string, string> {
  const params = endpoint.route === undefined ? {} : routeParams(endpoint.route, request.path);
  if (params === undefined) throw new Error(`${request.path} does not match the route ${endpoint.route}`);
  return inputsOf({
    headers: request.headers,
    body: request.body === undefined ? undefined : JSON.parse(request.body),
    params,
  });
}

export interface Supply {
  /** The next item; once all were handed out, they are handed out again (the endpoint then answers an error). */
  next(): string;
  /** A sentence saying the supply ran out and what to do, once it has; undefined before. */
  shortage(): string | undefined;
}

/** Hands out `items` in order, for requests that each use up a seeded row. */
export function supplyOf(items: readonly string[], what: string, setting: string): Supply {
  let handedOut = 0;
  return {
    next() {
      if (items.length === 0) throw new Error(`No ${what} were seeded`);
      const item = items[handedOut % items.length]!;
      handedOut += 1;
      return item;
    },
    shortage: () =>
      handedOut > items.length
        ? `${handedOut.toLocaleString('en-US')} requests needed more than the ${items.length.toLocaleString('en-US')} ` +
          `${what} seeded (the rest failed); set ${setting} higher`
        : undefined,
  };
}
