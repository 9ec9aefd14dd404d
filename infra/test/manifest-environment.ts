// The production configuration: each service's environment as its Kubernetes Deployment gives it, from the
// ConfigMap and the Secret template (placeholders where the real secrets go).
import { kubernetesObjects, SECRET_TEMPLATE_FILE } from './deployment-files.js';
import { type ConfigMap, type Container, type Deployment, findObject, type Secret } from './kubernetes.js';
import { withPlaceholdersFilled } from './placeholders.js';
import type { ServiceUnderTest } from './services.js';

const objects = kubernetesObjects();

export function deploymentOf(service: ServiceUnderTest): Deployment {
  return findObject<Deployment>(objects, 'Deployment', service.name);
}

export function containerOf(service: ServiceUnderTest): Container {
  const container = deploymentOf(service).spec.template.spec.containers.find(({ name }) => name === service.name);
  if (container === undefined) throw new Error(`the ${service.name} Deployment has no container named ${service.name}`);
  return container;
}

function secretTemplate(name: string): Record<string, string> {
  const secret = objects.find(
    (object): object is Secret & { file: string } =>
      object.kind === 'Secret' && object.metadata.name === name && object.file === SECRET_TEMPLATE_FILE,
  );
  if (secret?.stringData === undefined) {
    throw new Error(`${SECRET_TEMPLATE_FILE} has no Secret ${name} with stringData`);
  }
  return secret.stringData;
}

/** Where each variable of a container comes from, and its value (placeholders for secrets). */
export function manifestEnvironment(container: Container): { source: string; name: string; value: string }[] {
  const variables: { source: string; name: string; value: string }[] = [];
  for (const reference of container.envFrom ?? []) {
    if (reference.configMapRef !== undefined) {
      const { name } = reference.configMapRef;
      const data = findObject<ConfigMap>(objects, 'ConfigMap', name).data ?? {};
      for (const [key, value] of Object.entries(data)) {
        variables.push({ source: `ConfigMap ${name}`, name: key, value });
      }
    }
    if (reference.secretRef !== undefined) {
      const { name } = reference.secretRef;
      for (const [key, value] of Object.entries(secretTemplate(name))) {
        variables.push({ source: `Secret ${name}`, name: key, value });
      }
    }
  }
  for (const variable of container.env ?? []) {
    const secretKey = variable.valueFrom?.secretKeyRef;
    const value = secretKey === undefined ? variable.value : secretTemplate(secretKey.name)[secretKey.key];
    if (value === undefined) throw new Error(`${container.name}: ${variable.name} has no value the test can resolve`);
    variables.push({ source: `env of ${container.name}`, name: variable.name, value });
  }
  return variables;
}

export function environmentFrom(variables: { name: string; value: string }[]): NodeJS.ProcessEnv {
  return Object.fromEntries(variables.map(({ name, value }) => [name, value]));
}

/** The environment `service` runs with in production: the templates' placeholders filled in, as an operator does. */
export function productionEnvironment(service: ServiceUnderTest): NodeJS.ProcessEnv {
  return withPlaceholdersFilled(templateEnvironment(service));
}

/** The environment the manifests and the Secret template give `service`, placeholders and all. */
export function templateEnvironment(service: ServiceUnderTest): NodeJS.ProcessEnv {
  return environmentFrom(manifestEnvironment(containerOf(service)));
}
