import { serviceUnavailable } from '@platform/errors';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from './schemas.js';

/** Resolves when a dependency (database, Redis...) can serve requests; rejects otherwise. */
export type ReadinessCheck = () => Promise<void>;

export type HealthOptions = {
  /** Dependencies the service cannot serve without (the database): one failing makes /readyz 503. */
  readinessChecks?: Record<string, ReadinessCheck>;
  /**
   * Dependencies the service serves without, in a degraded mode (Redis: rate limits fail open). Reported in
   * /readyz's body, never a 503: an orchestrator would otherwise take every instance out of service at once.
   */
  optionalChecks?: Record<string, ReadinessCheck>;
  /** A check that takes longer counts as failed (default 5 s), so the probe itself never hangs. */
  readinessTimeoutMs?: number;
};

const HealthStatus = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
const ReadinessStatus = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
      description: '`degraded` when an optional dependency is unavailable; the service still serves requests',
    }),
    checks: Type.Record(Type.String(), Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]), {
      description: 'Each dependency by name (database, redis): `ok` or `unavailable`',
    }),
  },
  { additionalProperties: false },
);

async function withTimeout(check: ReadinessCheck, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([check(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function registerHealthRoutes(app: FastifyInstance, options: HealthOptions): Promise<void> {
  const checks = [
    ...Object.entries(options.readinessChecks ?? {}).map(([name, check]) => ({ name, check, required: true })),
    ...Object.entries(options.optionalChecks ?? {}).map(([name, check]) => ({ name, check, required: false })),
  ];
  const timeoutMs = options.readinessTimeoutMs ?? 5_000;

  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: { tags: ['Operations'], summary: 'Liveness probe', response: { 200: HealthStatus } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { public: true },
      schema: {
        tags: ['Operations'],
        summary: 'Readiness probe: required dependencies answer; optional ones are reported',
        response: { 200: ReadinessStatus, ...errorResponses(503) },
      },
    },
    async (request) => {
      const outcomes = await Promise.all(
        checks.map(async ({ name, check, required }) => {
          try {
            await withTimeout(check, timeoutMs);
            return 'ok' as const;
          } catch (error) {
            if (required) request.log.error({ err: error, check: name }, 'readiness check failed');
            else request.log.warn({ err: error, check: name }, 'optional dependency unavailable: serving degraded');
            return 'unavailable' as const;
          }
        }),
      );
      const failedRequired = checks.filter(({ required }, index) => required && outcomes[index] === 'unavailable');
      if (failedRequired.length > 0) {
        const names = failedRequired.map(({ name }) => name).join(', ');
        throw serviceUnavailable(`Service not ready: ${names} unavailable`);
      }
      return {
        status: outcomes.includes('unavailable') ? ('degraded' as const) : ('ok' as const),
        checks: Object.fromEntries(checks.map(({ name }, index) => [name, outcomes[index] ?? 'unavailable'])),
      };
    },
  );
}
