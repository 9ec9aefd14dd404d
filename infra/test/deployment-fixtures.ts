// Every deployment file must agree with the services it deploys: images, ports, probe paths, configuration
// variables and the migration command are read from the services and packages themselves, not restated here.
// What the deployment file tests share: the Kubernetes objects, compose's services and variables, and where a
// package's build puts its JavaScript.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { interpolate } from './compose-env.js';
import { type ComposeService, compose, composeEnvExample, kubernetesObjects } from './deployment-files.js';
import { repositoryRoot } from './yaml-files.js';

export const objects = kubernetesObjects();
export const composeServices = compose().services;
export const composeVariables = composeEnvExample();

export function composeService(name: string): ComposeService {
  const service = composeServices[name];
  if (service === undefined) throw new Error(`compose.yaml has no service ${name}`);
  return service;
}

/** A compose service's environment after interpolation with compose.env.example. */
export function composeEnvironment(name: string): NodeJS.ProcessEnv {
  const environment = composeService(name).environment ?? {};
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => [key, interpolate(String(value ?? ''), composeVariables)]),
  );
}

/** The container side of a compose port mapping: "3000:3000" or "127.0.0.1:3000:3000/tcp" -> 3000. */
export function containerPortOfMapping(mapping: string): number {
  return Number(mapping.split(':').at(-1)?.split('/')[0]);
}

export function seconds(duration: string): number {
  const match = /^(\d+)(s|m)$/.exec(duration);
  if (match === null) throw new Error(`unreadable duration ${duration}`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
}

export function readJson<T>(relativePath: string): T {
  return JSON.parse(readFileSync(path.join(repositoryRoot, relativePath), 'utf8')) as T;
}

/** Where `tsc -p tsconfig.build.json` puts the JavaScript of `source` (a path inside the package). */
export function builtPathOf(packageDir: string, source: string): string {
  const { compilerOptions } = readJson<{ compilerOptions: { rootDir: string; outDir: string } }>(
    path.join(packageDir, 'tsconfig.build.json'),
  );
  const relativeToRoot = path.relative(compilerOptions.rootDir, source);
  expect(relativeToRoot.startsWith('..'), `${source} is outside ${compilerOptions.rootDir}`).toBe(false);
  return path.join(compilerOptions.outDir, relativeToRoot).replace(/\.ts$/, '.js');
}
