import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserModules } from './serve.js';

// What the package ships, built as `pnpm build` builds it: small, self-contained, and what the demo page serves.

/** The budget: at most 4 kB of JavaScript over the wire, gzipped. */
const MAX_GZIPPED_BYTES = 4096;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('the built package', () => {
  let outDir: string;
  let shipped: Map<string, string>;

  beforeAll(async () => {
    outDir = await mkdtemp(path.join(tmpdir(), 'verify-web-build-'));
    await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir], {
      cwd: packageDir,
    });
    const names = (await readdir(outDir)).filter((name) => name.endsWith('.js'));
    shipped = new Map(
      await Promise.all(names.map(async (name) => [name, await readFile(path.join(outDir, name), 'utf8')] as const)),
    );
  });
  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('is three modules with their type declarations, and nothing for Node', async () => {
    expect([...shipped.keys()].sort()).toEqual(['events.js', 'index.js', 'start.js']);
    const declarations = (await readdir(outDir)).filter((name) => name.endsWith('.d.ts')).sort();
    expect(declarations).toEqual(['events.d.ts', 'index.d.ts', 'start.d.ts']);
    const types = await readFile(path.join(outDir, 'index.d.ts'), 'utf8');
    expect(types).toContain('export declare function startVerification(');
  });

  it(`weighs at most ${MAX_GZIPPED_BYTES} bytes gzipped, all modules together`, () => {
    const sizes = [...shipped.values()].map((code) => gzipSync(code, { level: 9 }).length);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(total).toBeGreaterThan(500);
    expect(total).toBeLessThanOrEqual(MAX_GZIPPED_BYTES);
  });

  it('imports nothing but its own modules: no runtime dependencies', async () => {
    for (const code of shipped.values()) {
      const specifiers = [...code.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)].map(
        (match) => match[1] ?? match[2],
      );
      for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/[a-z-]+\.js$/);
    }
    const manifest = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies).toBeUndefined();
  });

  it('is what the repository serves to its demo page and browser tests', () => {
    const withoutSourceMap = (code: string) => code.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
    const served = browserModules();
    expect([...served.keys()].sort()).toEqual([...shipped.keys()].sort());
    for (const [name, code] of shipped) expect(served.get(name), name).toBe(withoutSourceMap(code));
  });
});
