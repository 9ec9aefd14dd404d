import { createTestDatabase } from '@platform/db/testing';
import { describe, expect, it } from 'vitest';
import { dockerfile, kustomization } from './deployment-files.js';
import { composeEnvironment, composeService, containerPortOfMapping, objects } from './deployment-fixtures.js';
import { environmentOf, exposedPorts, finalStage } from './dockerfile.js';
import { findObject, imageName, resolveContainerPort, type Service } from './kubernetes.js';
import { containerOf, deploymentOf, environmentFrom, manifestEnvironment } from './manifest-environment.js';
import { withPlaceholdersFilled } from './placeholders.js';
import { services } from './services.js';

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
});
