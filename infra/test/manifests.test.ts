// Every deployment file must agree with the services it deploys: images, ports, probe paths, configuration
// variables and the migration command are read from the services and packages themselves, not restated here.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase } from '@platform/db/testing';
import { describe, expect, it } from 'vitest';
import { interpolate, referencedVariables } from './compose-env.js';
import {
  type ComposeService,
  compose,
  composeEnvExample,
  composeStrings,
  dockerfile,
  dockerfilePath,
  kubernetesDir,
  kubernetesDocuments,
  kubernetesObjects,
  kustomization,
  SECRET_TEMPLATE_FILE,
} from './deployment-files.js';
import {
  argsOf,
  environmentOf,
  execForm,
  exposedPorts,
  finalStage,
  finalUser,
  healthcheckCommand,
} from './dockerfile.js';
import {
  findObject,
  type HorizontalPodAutoscaler,
  imageName,
  isKubernetesObject,
  type Job,
  type PodDisruptionBudget,
  resolveContainerPort,
  type Secret,
  type Service,
  selects,
} from './kubernetes.js';
import {
  containerOf,
  deploymentOf,
  environmentFrom,
  manifestEnvironment,
  productionEnvironment,
} from './manifest-environment.js';
import { withPlaceholdersFilled } from './placeholders.js';
import {
  MIGRATION_COMMAND,
  MIGRATION_CONNECTIONS,
  MIGRATION_VARIABLES,
  mainApi,
  type ServiceUnderTest,
  services,
  shutdownDelaySeconds,
} from './services.js';
import { infraDir, repositoryRoot, yamlFilesUnder } from './yaml-files.js';

const objects = kubernetesObjects();
const composeServices = compose().services;
const composeVariables = composeEnvExample();

function composeService(name: string): ComposeService {
  const service = composeServices[name];
  if (service === undefined) throw new Error(`compose.yaml has no service ${name}`);
  return service;
}

/** A compose service's environment after interpolation with compose.env.example. */
function composeEnvironment(name: string): NodeJS.ProcessEnv {
  const environment = composeService(name).environment ?? {};
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => [key, interpolate(String(value ?? ''), composeVariables)]),
  );
}

/** The container side of a compose port mapping: "3000:3000" or "127.0.0.1:3000:3000/tcp" -> 3000. */
function containerPortOfMapping(mapping: string): number {
  return Number(mapping.split(':').at(-1)?.split('/')[0]);
}

function seconds(duration: string): number {
  const match = /^(\d+)(s|m)$/.exec(duration);
  if (match === null) throw new Error(`unreadable duration ${duration}`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
}

function readJson<T>(relativePath: string): T {
  return JSON.parse(readFileSync(path.join(repositoryRoot, relativePath), 'utf8')) as T;
}

/** Where `tsc -p tsconfig.build.json` puts the JavaScript of `source` (a path inside the package). */
function builtPathOf(packageDir: string, source: string): string {
  const { compilerOptions } = readJson<{ compilerOptions: { rootDir: string; outDir: string } }>(
    path.join(packageDir, 'tsconfig.build.json'),
  );
  const relativeToRoot = path.relative(compilerOptions.rootDir, source);
  expect(relativeToRoot.startsWith('..'), `${source} is outside ${compilerOptions.rootDir}`).toBe(false);
  return path.join(compilerOptions.outDir, relativeToRoot).replace(/\.ts$/, '.js');
}

describe('the Kubernetes manifests', () => {
  it('parse, document by document, into named Kubernetes objects and one Kustomization', () => {
    const documents = kubernetesDocuments();
    const kinds = documents.map(({ value }) => (value as { kind?: string }).kind);
    expect(kinds.filter((kind) => kind === 'Kustomization')).toHaveLength(1);
    for (const { file, value } of documents) {
      const kind = (value as { kind?: string }).kind;
      expect(kind === 'Kustomization' || isKubernetesObject(value), `${file}: ${kind ?? 'no kind'}`).toBe(true);
    }
    const identities = objects.map((object) => `${object.kind}/${object.metadata.name}`);
    expect(new Set(identities).size, 'each kind and name once').toBe(identities.length);
    expect(new Set(objects.map(({ kind }) => kind))).toEqual(
      new Set([
        'Namespace',
        'ConfigMap',
        'Secret',
        'Deployment',
        'Service',
        'HorizontalPodAutoscaler',
        'PodDisruptionBudget',
        'Job',
      ]),
    );
  });

  it('are all applied by kustomization.yaml, in the platform namespace, except the Secret template', () => {
    const listed = new Set(kustomization().resources);
    const files = yamlFilesUnder(kubernetesDir)
      .map((file) => path.relative(kubernetesDir, file))
      .filter((file) => file !== 'kustomization.yaml');
    for (const file of files) {
      expect(listed.has(file), file).toBe(`k8s/${file}` !== SECRET_TEMPLATE_FILE);
    }
    expect(listed.size).toBe(files.length - 1);
    const namespace = objects.filter(({ kind }) => kind === 'Namespace').map(({ metadata }) => metadata.name);
    expect(namespace).toEqual([kustomization().namespace]);
  });

  it('hold no secret but placeholders marked REPLACE_ME', () => {
    const secrets = objects.filter((object): object is Secret & { file: string } => object.kind === 'Secret');
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(secret.file, 'Secrets live in the template only').toBe(SECRET_TEMPLATE_FILE);
      expect(secret.data, 'no base64 data, which would hide what it holds').toBeUndefined();
      for (const [key, value] of Object.entries(secret.stringData ?? {})) {
        expect(value, `${secret.metadata.name} ${key}`).toContain('REPLACE_ME');
      }
    }
  });
});

describe.each(services.map((service) => [service.name, service] as const))('%s', (_name, service) => {
  it('runs the service image in its Deployment, which kustomization.yaml pins', () => {
    expect(imageName(containerOf(service).image)).toBe(service.image);
    expect(kustomization().images?.map(({ name }) => name)).toContain(service.image);
  });

  it("listens on its config schema's default PORT in the Dockerfile, the Deployment, the Service and compose", () => {
    const port = service.defaultPort;
    const container = containerOf(service);
    const manifestPort = manifestEnvironment(container).find(({ name }) => name === 'PORT');
    expect(manifestPort === undefined || Number(manifestPort.value) === port, 'PORT left at its default').toBe(true);
    expect(container.ports).toEqual([{ name: 'http', containerPort: port, protocol: 'TCP' }]);
    const annotations = deploymentOf(service).spec.template.metadata?.annotations ?? {};
    expect(annotations['prometheus.io/port']).toBe(String(port));
    expect(annotations['prometheus.io/path']).toBe('/metrics');

    const kubernetesService = findObject<Service>(objects, 'Service', service.name);
    expect(kubernetesService.spec.type).toBe('ClusterIP');
    expect(kubernetesService.spec.ports).toHaveLength(1);
    for (const servicePort of kubernetesService.spec.ports) {
      expect(servicePort.port).toBe(port);
      expect(resolveContainerPort(container, servicePort.targetPort ?? servicePort.port)).toBe(port);
    }

    const runtime = finalStage(dockerfile(service.name));
    expect(exposedPorts(runtime)).toEqual([port]);
    expect(environmentOf(runtime).get('PORT')).toBe(String(port));

    const composed = composeService(service.name);
    expect(composed.ports?.map(containerPortOfMapping)).toEqual([port]);
    expect(composeEnvironment(service.name).PORT ?? String(port)).toBe(String(port));
  });

  it('probes /readyz for readiness and /healthz for liveness and startup, on the service port', () => {
    const container = containerOf(service);
    const probes = {
      readiness: container.readinessProbe,
      liveness: container.livenessProbe,
      startup: container.startupProbe,
    };
    expect(probes.readiness?.httpGet?.path).toBe('/readyz');
    expect(probes.liveness?.httpGet?.path).toBe('/healthz');
    expect(probes.startup?.httpGet?.path).toBe('/healthz');
    for (const [kind, probe] of Object.entries(probes)) {
      expect(resolveContainerPort(container, probe?.httpGet?.port), `${kind} probe port`).toBe(service.defaultPort);
    }
  });

  it("answers the probe paths, and /metrics with the Secret's token only, when built from the manifests", async () => {
    const container = containerOf(service);
    const environment = withPlaceholdersFilled(environmentFrom(manifestEnvironment(container)));
    const metricsToken = environment.METRICS_TOKEN;
    expect(metricsToken, 'the Secret sets METRICS_TOKEN').toBeDefined();
    const paths = [container.readinessProbe, container.livenessProbe, container.startupProbe].map(
      (probe) => probe?.httpGet?.path ?? '(no path)',
    );

    const database = await createTestDatabase();
    const app = service.build(environment, database);
    try {
      for (const url of new Set(paths)) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200);
      }
      const unauthorised = await app.inject({ method: 'GET', url: '/metrics' });
      expect(unauthorised.statusCode).toBe(401);
      const scrape = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.body).toContain('http_requests_total{');
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('gets only variables the service reads from its ConfigMap and Secret, each from one place, and boots', () => {
    const variables = manifestEnvironment(containerOf(service));
    const sources = new Set(variables.map(({ source }) => source.split(' ')[0]));
    expect(sources).toEqual(new Set(['ConfigMap', 'Secret']));
    for (const { source, name } of variables) {
      expect(service.variables.has(name), `${source} sets ${name}, which ${service.name} does not read`).toBe(true);
    }
    const names = variables.map(({ name }) => name);
    expect(
      names.filter((name, index) => names.indexOf(name) !== index),
      'set twice',
    ).toEqual([]);
    expect(() => service.loadConfig(withPlaceholdersFilled(environmentFrom(variables)))).not.toThrow();
  });

  it('runs as a non-root user with a read-only root filesystem and a writable /tmp', () => {
    const pod = deploymentOf(service).spec.template.spec;
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
    const container = containerOf(service);
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    const tmp = container.volumeMounts?.find(({ mountPath }) => mountPath === '/tmp');
    expect(pod.volumes?.find(({ name }) => name === tmp?.name)?.emptyDir).toBeDefined();
  });

  it('leaves its graceful shutdown time to finish before the pod or container is killed', () => {
    const pod = deploymentOf(service).spec.template.spec;
    const preStop = containerOf(service).lifecycle?.preStop;
    const preStopSeconds = preStop?.sleep?.seconds ?? Number(preStop?.exec?.command.at(-1) ?? 0);
    expect(preStop?.exec?.command[0] ?? 'sleep').toBe('sleep');
    expect(pod.terminationGracePeriodSeconds ?? 30).toBeGreaterThan(preStopSeconds + shutdownDelaySeconds());
    expect(seconds(composeService(service.name).stop_grace_period ?? '10s')).toBeGreaterThan(shutdownDelaySeconds());
  });

  it('runs at least two replicas with resource requests and limits, kept up by a PodDisruptionBudget', () => {
    const deployment = deploymentOf(service);
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    const { resources } = containerOf(service);
    expect(Object.keys(resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(resources?.limits?.memory).toBeDefined();
    const budget = findObject<PodDisruptionBudget>(objects, 'PodDisruptionBudget', service.name);
    expect(selects(budget.spec.selector.matchLabels, deployment.spec.template.metadata?.labels)).toBe(true);
  });

  it('is scaled on CPU by an autoscaling/v2 HorizontalPodAutoscaler aimed at its Deployment', () => {
    const autoscaler = findObject<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', service.name);
    expect(autoscaler.apiVersion).toBe('autoscaling/v2');
    expect(autoscaler.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: service.name });
    expect(autoscaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(autoscaler.spec.maxReplicas).toBeGreaterThan(autoscaler.spec.minReplicas ?? 1);
    const cpu = autoscaler.spec.metrics?.find(({ resource }) => resource?.name === 'cpu');
    expect(cpu?.resource?.target.type).toBe('Utilization');
    expect(cpu?.resource?.target.averageUtilization).toBeGreaterThan(0);
  });

  it("has a Service that selects the Deployment's pods only", () => {
    const deployment = deploymentOf(service);
    const labels = deployment.spec.template.metadata?.labels;
    const kubernetesService = findObject<Service>(objects, 'Service', service.name);
    expect(selects(kubernetesService.spec.selector, labels)).toBe(true);
    expect(selects(deployment.spec.selector.matchLabels, labels)).toBe(true);
    for (const other of services.filter(({ name }) => name !== service.name)) {
      expect(selects(kubernetesService.spec.selector, deploymentOf(other).spec.template.metadata?.labels)).toBe(false);
    }
  });

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

describe('compose', () => {
  it('runs PostgreSQL 16 and Redis 7 with health checks', () => {
    expect(composeService('postgres').image).toBe('postgres:16');
    expect(composeService('postgres').healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(composeService('redis').image).toBe('redis:7');
    expect(composeService('redis').healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(Object.keys(composeServices).sort()).toEqual(['backend-api', 'main-api', 'migrate', 'postgres', 'redis']);
  });

  it('takes its variables from compose.env.example, which holds no variable compose.yaml does not use', () => {
    const used = new Set(composeStrings().flatMap((text) => [...referencedVariables(text)]));
    expect(
      [...used].filter((name) => !composeVariables.has(name)),
      'used but not in the example',
    ).toEqual([]);
    expect(
      [...composeVariables.keys()].filter((name) => !used.has(name)),
      'in the example but unused',
    ).toEqual([]);
    for (const [name, value] of composeVariables) {
      if (/SECRET|PASSWORD|TOKEN/.test(name) && value !== '') expect(value, name).toContain('REPLACE_ME');
    }
  });
});
