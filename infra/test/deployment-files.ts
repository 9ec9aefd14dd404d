// Loads every deployment file of infra/: the Kubernetes manifests, the compose file with its example env
// file, and the Dockerfiles.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnvFile } from './compose-env.js';
import { type Dockerfile, parseDockerfile } from './dockerfile.js';
import { isKubernetesObject, type KubernetesObject, type Kustomization } from './kubernetes.js';
import { infraDir, readYamlDocuments, readYamlFile, type YamlDocument, yamlFilesUnder } from './yaml-files.js';

export const kubernetesDir = path.join(infraDir, 'k8s');
const composeFile = path.join(infraDir, 'compose.yaml');
const composeEnvExampleFile = path.join(infraDir, 'compose.env.example');

/** The Secret manifests are a template with placeholders; kustomization.yaml must leave them out. */
export const SECRET_TEMPLATE_FILE = 'k8s/secrets.example.yaml';

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  read_only?: boolean;
  tmpfs?: string[];
  restart?: string;
  stop_grace_period?: string;
  volumes?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export function kubernetesDocuments(): YamlDocument[] {
  return yamlFilesUnder(kubernetesDir).flatMap(readYamlDocuments);
}

/** Every Kubernetes object under infra/k8s (the Kustomization excepted), with the file it came from. */
export function kubernetesObjects(): (KubernetesObject & { file: string })[] {
  return kubernetesDocuments()
    .filter(({ value }) => (value as { kind?: unknown }).kind !== 'Kustomization')
    .map(({ file, value }) => {
      if (!isKubernetesObject(value)) throw new Error(`${file}: a document without apiVersion, kind or metadata.name`);
      return { ...value, file };
    });
}

export function kustomization(): Kustomization {
  return readYamlFile(path.join(kubernetesDir, 'kustomization.yaml')) as Kustomization;
}

export function compose(): ComposeFile {
  return readYamlFile(composeFile) as ComposeFile;
}

/** Every string value of the compose file (comments excluded): where its ${VARIABLE} references are. */
export function composeStrings(): string[] {
  const strings: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(readYamlFile(composeFile));
  return strings;
}

export function composeEnvExample(): Map<string, string> {
  return parseEnvFile(readFileSync(composeEnvExampleFile, 'utf8'));
}

export function dockerfilePath(service: string): string {
  return path.join(infraDir, 'docker', `${service}.Dockerfile`);
}

export function dockerfile(service: string): Dockerfile {
  return parseDockerfile(readFileSync(dockerfilePath(service), 'utf8'));
}
