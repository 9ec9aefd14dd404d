import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubernetesDir, kubernetesDocuments, kustomization, SECRET_TEMPLATE_FILE } from './deployment-files.js';
import { objects } from './deployment-fixtures.js';
import { isKubernetesObject, type Secret } from './kubernetes.js';
import { yamlFilesUnder } from './yaml-files.js';

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
