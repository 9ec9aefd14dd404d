import { describe, expect, it } from 'vitest';
import { composeService, objects, seconds } from './deployment-fixtures.js';
import {
  findObject,
  type HorizontalPodAutoscaler,
  type PodDisruptionBudget,
  type Service,
  selects,
} from './kubernetes.js';
import { containerOf, deploymentOf } from './manifest-environment.js';
import { services, shutdownDelaySeconds } from './services.js';

describe.each(services.map((service) => [service.name, service] as const))('%s', (_name, service) => {
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
});
