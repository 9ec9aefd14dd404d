import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Customers import this package in browsers and in Node, so what ships must stay free of dependencies and Node APIs.
const sourceDir = new URL('./', import.meta.url);
const shippedFiles = readdirSync(sourceDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

describe('the shipped code is portable', () => {
  it('declares no runtime dependencies', () => {
    expect(packageJson.dependencies ?? {}).toEqual({});
    expect(packageJson.peerDependencies ?? {}).toEqual({});
  });

  it.each(shippedFiles)('%s imports only sibling modules and uses no Node globals', (name) => {
    const source = readFileSync(new URL(name, sourceDir), 'utf8');
    const specifiers = [...source.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(?\s*'([^']+)'/g)].map(
      (match) => match[1] ?? match[2],
    );
    for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/[\w-]+\.js$/);
    expect(source).not.toMatch(/\b(Buffer|process|require|__dirname|globalThis\.process)\b/);
  });
});
