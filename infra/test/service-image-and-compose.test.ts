import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpolate } from './compose-env.js';
import { dockerfile, dockerfilePath } from './deployment-files.js';
import { builtPathOf, composeEnvironment, composeService, composeVariables, readJson } from './deployment-fixtures.js';
import { argsOf, environmentOf, execForm, finalStage, finalUser, healthcheckCommand } from './dockerfile.js';
import { imageName } from './kubernetes.js';
import { withPlaceholdersFilled } from './placeholders.js';
import { services } from './services.js';
import { infraDir, repositoryRoot } from './yaml-files.js';

describe.each(services.map((service) => [service.name, service] as const))('%s', (_name, service) => {
  it('has a Dockerfile that builds only this service and its packages, and runs it as a non-root user', () => {
    const file = dockerfile(service.name);
    expect(file.stages.every(({ image }) => image === 'node:20-bookworm-slim')).toBe(true);
    const runs = file.stages.flatMap((stage) => argsOf(stage, 'RUN'));
    expect(runs).toContain('corepack pnpm install --frozen-lockfile --offline');
    expect(runs).toContain(`corepack pnpm run build --filter=@platform/${service.name}...`);
    expect(runs).toContain(
      `corepack pnpm --filter @platform/${service.name} deploy --prod --legacy --prefer-offline /out`,
    );

    const runtime = finalStage(file);
    const runtimeRuns = argsOf(runtime, 'RUN');
    expect(
      runtimeRuns.some((run) => run.includes('pnpm')),
      'no build tools in the runtime stage',
    ).toBe(false);
    expect(argsOf(runtime, 'COPY')).toContain('--from=build /out ./');
    expect(finalUser(runtime)).toBeDefined();
    expect(['root', '0']).not.toContain(finalUser(runtime)?.split(':')[0]);
    expect(environmentOf(runtime).get('NODE_ENV')).toBe('production');

    const command = execForm(runtime, 'CMD');
    expect(command?.[0]).toBe('node');
    const appDir = `apps/${service.name}`;
    expect(command?.[1]).toBe(builtPathOf(appDir, 'src/server.ts'));
    expect(existsSync(path.join(repositoryRoot, appDir, 'src/server.ts'))).toBe(true);
    expect(readJson<{ files: string[] }>(`${appDir}/package.json`).files).toContain('dist');

    const healthcheck = healthcheckCommand(runtime);
    expect(healthcheck?.[0]).toBe('node');
    expect(healthcheck?.join(' ')).toContain("'/healthz'");
    expect(healthcheck?.join(' ')).toContain(`process.env.PORT || ${service.defaultPort}`);
  });

  it('runs in compose from its Dockerfile with variables it reads, after the migration, with Redis healthy', () => {
    const composed = composeService(service.name);
    expect(imageName(interpolate(composed.image ?? '', composeVariables))).toBe(service.image);
    expect(path.resolve(infraDir, composed.build?.context ?? '', composed.build?.dockerfile ?? '')).toBe(
      dockerfilePath(service.name),
    );
    const environment = composeEnvironment(service.name);
    for (const name of Object.keys(environment)) {
      expect(service.variables.has(name), `compose sets ${name}, which ${service.name} does not read`).toBe(true);
    }
    // Copied as it is, compose.env.example's placeholders stop the service; filled in, it boots.
    expect(() => service.loadConfig(environment)).toThrow(/still holds the REPLACE_ME placeholder/);
    expect(() => service.loadConfig(withPlaceholdersFilled(environment))).not.toThrow();
    expect(environment.DATABASE_URL).toBe(composeEnvironment('migrate').DATABASE_URL);
    expect(composed.depends_on).toMatchObject({
      migrate: { condition: 'service_completed_successfully' },
      redis: { condition: 'service_healthy' },
    });
    expect(composed.read_only).toBe(true);
    expect(composed.tmpfs).toContain('/tmp');
  });
});
