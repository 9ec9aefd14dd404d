import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtPathOf, composeEnvironment, composeService, objects, readJson } from './deployment-fixtures.js';
import { findObject, imageName, type Job } from './kubernetes.js';
import { containerOf, environmentFrom, manifestEnvironment } from './manifest-environment.js';
import { MIGRATION_COMMAND, MIGRATION_VARIABLES, mainApi } from './services.js';
import { repositoryRoot } from './yaml-files.js';

describe('the migration', () => {
  it("is @platform/db's built migration command, which the main-api image carries", () => {
    const [runtime, script] = MIGRATION_COMMAND;
    expect(runtime).toBe('node');
    const dbDir = 'packages/db';
    expect(existsSync(path.join(repositoryRoot, dbDir, 'src/cli/migrate.ts'))).toBe(true);
    expect(script).toBe(`node_modules/@platform/db/${builtPathOf(dbDir, 'src/cli/migrate.ts')}`);
    // The deployed main-api holds a copy of @platform/db's published files: the build and the migrations.
    const db = readJson<{ name: string; files: string[] }>(`${dbDir}/package.json`);
    expect(db.name).toBe('@platform/db');
    expect(db.files).toEqual(expect.arrayContaining(['dist', 'migrations']));
    const main = readJson<{ dependencies: Record<string, string> }>(`apps/${mainApi.name}/package.json`);
    expect(main.dependencies['@platform/db']).toBe('workspace:*');
  });

  it('runs as a Kubernetes Job from the main-api image, with a retry limit and a time to live', () => {
    const job = findObject<Job>(objects, 'Job', 'platform-migrate');
    expect(job.apiVersion).toBe('batch/v1');
    expect(job.metadata.labels?.['app.kubernetes.io/component']).toBe('migration');
    expect(job.spec.backoffLimit).toBeGreaterThanOrEqual(0);
    expect(job.spec.ttlSecondsAfterFinished).toBeGreaterThan(0);
    const pod = job.spec.template.spec;
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.containers).toHaveLength(1);
    const [container] = pod.containers;
    expect(imageName(container?.image ?? '')).toBe(mainApi.image);
    expect(container?.image).toBe(containerOf(mainApi).image);
    expect([...(container?.command ?? []), ...(container?.args ?? [])]).toEqual(MIGRATION_COMMAND);
    const environment = container === undefined ? [] : manifestEnvironment(container);
    expect(environment.map(({ name }) => name)).toEqual(['DATABASE_URL']);
    expect(environment[0]?.value).toBe(environmentFrom(manifestEnvironment(containerOf(mainApi))).DATABASE_URL);
  });

  it('runs in compose once PostgreSQL is healthy, from the main-api image, then exits', () => {
    const migrate = composeService('migrate');
    expect(migrate.image).toBe(composeService(mainApi.name).image);
    expect(migrate.build).toEqual(composeService(mainApi.name).build);
    expect(migrate.command).toEqual(MIGRATION_COMMAND);
    expect(migrate.restart).toBe('no');
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const name of Object.keys(composeEnvironment('migrate'))) {
      expect(MIGRATION_VARIABLES.has(name), name).toBe(true);
    }
  });
});
