// The parts of Kubernetes objects the manifest test reads. Parsed YAML is cast to these shapes after the
// object is found by kind and name; the assertions then check that each field read is really there.

interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
}

interface HttpGetProbe {
  httpGet?: { path?: string; port?: number | string };
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: HttpGetProbe;
  livenessProbe?: HttpGetProbe;
  startupProbe?: HttpGetProbe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string }[];
}

interface PodSpec {
  containers: Container[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number };
  volumes?: { name: string; emptyDir?: Record<string, unknown> }[];
}

interface PodTemplate {
  metadata?: ObjectMeta | Omit<ObjectMeta, 'name'>;
  spec: PodSpec;
}

export interface Deployment extends KubernetesObject {
  spec: {
    replicas?: number;
    selector: { matchLabels: Record<string, string> };
    strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
    template: PodTemplate;
  };
}

export interface Service extends KubernetesObject {
  spec: {
    type?: string;
    selector: Record<string, string>;
    ports: { name?: string; port: number; targetPort?: number | string }[];
  };
}

export interface HorizontalPodAutoscaler extends KubernetesObject {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics?: {
      type: string;
      resource?: { name: string; target: { type: string; averageUtilization?: number } };
    }[];
  };
}

export interface PodDisruptionBudget extends KubernetesObject {
  spec: { selector: { matchLabels: Record<string, string> } };
}

export interface Job extends KubernetesObject {
  spec: { backoffLimit?: number; parallelism?: number; ttlSecondsAfterFinished?: number; template: PodTemplate };
}

export interface ConfigMap extends KubernetesObject {
  data?: Record<string, string>;
}

export interface Secret extends KubernetesObject {
  stringData?: Record<string, string>;
  data?: Record<string, string>;
}

export interface Kustomization {
  kind: 'Kustomization';
  namespace?: string;
  resources?: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
}

/** True for a parsed YAML value that has the apiVersion, kind and metadata.name of a Kubernetes object. */
export function isKubernetesObject(value: unknown): value is KubernetesObject {
  if (typeof value !== 'object' || value === null) return false;
  const { apiVersion, kind, metadata } = value as Partial<KubernetesObject>;
  return (
    typeof apiVersion === 'string' &&
    typeof kind === 'string' &&
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof metadata.name === 'string'
  );
}

/** The one object of `kind` named `name`; throws when there is none or more than one. */
export function findObject<T extends KubernetesObject>(objects: KubernetesObject[], kind: string, name: string): T {
  const matches = objects.filter((object) => object.kind === kind && object.metadata.name === name);
  if (matches.length !== 1) throw new Error(`expected one ${kind} named ${name}, found ${matches.length}`);
  return matches[0] as T;
}

/** The image reference without its tag or digest: `registry/platform/main-api:1.2` -> `registry/platform/main-api`. */
export function imageName(reference: string): string {
  const withoutDigest = reference.split('@')[0] ?? reference;
  const lastSlash = withoutDigest.lastIndexOf('/');
  const lastColon = withoutDigest.lastIndexOf(':');
  return lastColon > lastSlash ? withoutDigest.slice(0, lastColon) : withoutDigest;
}

/** The number a probe's or Service's port designates in `container`: a number, or the name of a container port. */
export function resolveContainerPort(container: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

/** Every label of `selector` is carried, with the same value, by `labels`. */
export function selects(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([key, value]) => labels?.[key] === value);
}
