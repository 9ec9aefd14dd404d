import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { objects } from './deployment-fixtures.js';
import { findObject, type HorizontalPodAutoscaler, type Job } from './kubernetes.js';
import { deploymentOf, productionEnvironment } from './manifest-environment.js';
import { MIGRATION_CONNECTIONS, type ServiceUnderTest, services } from './services.js';
import { repositoryRoot } from './yaml-files.js';

// PostgreSQL's defaults: max_connections 100, of which superuser_reserved_connections (3) only a superuser may
// use. Operators keep a few more for psql, the api-keys and wallets commands, and monitoring.
const POSTGRES_MAX_CONNECTIONS = 100;
const SUPERUSER_RESERVED_CONNECTIONS = 3;
const OPERATOR_CONNECTIONS = 5;

/** Pods a Deployment may run at once: the autoscaler's maximum plus the rolling update's surge. */
function mostPods(service: ServiceUnderTest): number {
  const autoscaler = findObject<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', service.name);
  const surge = deploymentOf(service).spec.strategy?.rollingUpdate?.maxSurge ?? '25%';
  const surgePods =
    typeof surge === 'number' ? surge : Math.ceil((autoscaler.spec.maxReplicas * Number.parseInt(surge, 10)) / 100);
  return autoscaler.spec.maxReplicas + surgePods;
}

describe('PostgreSQL connections', () => {
  it("fit under PostgreSQL's default max_connections with every pod of both services and the migration open", () => {
    const pools = services.map((service) => {
      const environment = productionEnvironment(service);
      expect(environment.DATABASE_POOL_SIZE, `${service.name}'s ConfigMap sets DATABASE_POOL_SIZE`).toBeDefined();
      const poolSize = service.databasePoolSize(environment);
      return { name: service.name, poolSize, connections: mostPods(service) * poolSize };
    });
    const job = findObject<Job>(objects, 'Job', 'platform-migrate');
    const migration = (job.spec.parallelism ?? 1) * MIGRATION_CONNECTIONS;
    const total = pools.reduce((sum, { connections }) => sum + connections, 0) + migration;
    expect(total, JSON.stringify(pools)).toBeLessThanOrEqual(
      POSTGRES_MAX_CONNECTIONS - SUPERUSER_RESERVED_CONNECTIONS - OPERATOR_CONNECTIONS,
    );
  });

  it('are what docs/operations.md works out', () => {
    const operations = readFileSync(path.join(repositoryRoot, 'docs/operations.md'), 'utf8');
    for (const service of services) {
      const poolSize = service.databasePoolSize(productionEnvironment(service));
      const autoscaler = findObject<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', service.name);
      expect(operations).toContain(
        `| ${service.name} | ${autoscaler.spec.maxReplicas} + ${mostPods(service) - autoscaler.spec.maxReplicas} | ${poolSize} | ${mostPods(service) * poolSize} |`,
      );
    }
  });
});
