import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// The front-end SDK as an integrator gets it: @platform/verify-web's dist/, which `pnpm build` writes (turbo.json
// builds it before this package's tests). Not the in-memory compilation the local start serves from the sources.

const PACKAGE = '@platform/verify-web';
const require = createRequire(import.meta.url);

/** Each module of the built SDK by file name (index.js, events.js, start.js). */
export function builtSdkModules(): ReadonlyMap<string, string> {
  // Tests resolve the `source` condition (the TypeScript entry): find the package, then the entry it ships.
  let directory = path.dirname(require.resolve('@platform/verify-web'));
  while (!existsSync(path.join(directory, 'package.json'))) directory = path.dirname(directory);
  const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, { default?: string }>;
  };
  const shipped = manifest.exports['.']?.default;
  if (manifest.name !== PACKAGE || shipped === undefined) throw new Error(`No ${PACKAGE} entry found`);
  const entry = path.join(directory, shipped);
  if (!existsSync(entry)) {
    throw new Error(`${PACKAGE} is not built: run \`corepack pnpm --filter ${PACKAGE} build\` first`);
  }
  const dist = path.dirname(entry);
  const names = readdirSync(dist).filter((name) => name.endsWith('.js'));
  return new Map(names.map((name) => [name, readFileSync(path.join(dist, name), 'utf8')]));
}
