import { serviceUnavailable } from '@platform/errors';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from './schemas.js';

/** Resolves when a dependency (database, Redis...) can serve requests; rejects otherwise. */
export type ReadinessCheck = () => Promise<void>;

export type HealthOptions = {
  readinessChecks?: Record<string, ReadinessCheck>;
  /** A check that takes longer counts as failed (default 5 s), so the probe itself never hangs. */
  readinessTimeoutMs?: number;
};

const HealthStatus = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
const ReadinessStatus = Type.Object(
  { status: Type.Literal('ok'), checks: Type.Record(Type.String(), Type.Literal('ok')) },
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
  const checks = Object.entries(options.readinessChecks ?? {});
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
        summary: 'Readiness probe: every dependency answers',
        response: { 200: ReadinessStatus, ...errorResponses(503) },
      },
    },
    async (request) => {
      const results = await Promise.allSettled(checks.map(([, check]) => withTimeout(check, timeoutMs)));
      const failed: string[] = [];
      results.forEach((result, index) => {
        const name = checks[index]?.[0] ?? String(index);
        if (result.status === 'rejected') {
          failed.push(name);
          request.log.error({ err: result.reason, check: name }, 'readiness check failed');
        }
      });
      if (failed.length > 0) throw serviceUnavailable(`Service not ready: ${failed.join(', ')} unavailable`);
      return { status: 'ok' as const, checks: Object.fromEntries(checks.map(([name]) => [name, 'ok' as const])) };
    },
  );
}
