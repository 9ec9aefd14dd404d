// Every page of docs/ the repository cites, and every anchor it cites in one (`docs/decisions.md#<anchor>`, in
// code comments and Markdown alike), exists; so does every file a Markdown link points at. Renaming a heading
// therefore fails here until its citations follow.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchorsOf,
  brokenReferences,
  docsCitationsIn,
  type Files,
  filesUnder,
  headingSlugs,
  markdownLinksIn,
  outsideDecisionCitationsIn,
  type Reference,
  sourceFiles,
} from './doc-references.js';
import { repositoryRoot } from './yaml-files.js';

// This file's fixtures cite missing pages and anchors on purpose.
const THIS_FILE = 'infra/test/doc-references.test.ts';
// Committed migrations are never edited, comments included (docs/operations.md#migrations).
const MIGRATIONS = 'packages/db/migrations/';

function referencesIn(file: string, text: string): Reference[] {
  return [...docsCitationsIn(text, file), ...(file.endsWith('.md') ? markdownLinksIn(text, file) : [])];
}

function fixture(pages: Record<string, string>): Files {
  const folders = new Set(Object.keys(pages).map((page) => path.posix.dirname(page)));
  return {
    exists: (target) => target in pages || folders.has(target),
    isFile: (target) => target in pages,
    read: (target) => pages[target] ?? '',
  };
}

describe('headingSlugs(markdown)', () => {
  it('gives the slugs of the headings as written, so a repeated one shows', () => {
    expect(headingSlugs('## Proration\n### Proration\n### Credit balance\n')).toEqual([
      'proration',
      'proration',
      'credit-balance',
    ]);
  });
});

describe('anchorsOf(markdown)', () => {
  it("gives each heading GitHub's slug: lowercase, punctuation dropped, spaces to hyphens", () => {
    const anchors = anchorsOf(
      [
        '# Decisions where the contract is silent',
        '## API key management (main-api)',
        '### Organizations are retired, not deleted',
        '### `dob` and kycStatus: 5xx answers hide internals',
        'Rate-limit headers',
        '------------------',
      ].join('\n'),
    );
    expect([...anchors]).toEqual([
      'decisions-where-the-contract-is-silent',
      'api-key-management-main-api',
      'organizations-are-retired-not-deleted',
      'dob-and-kycstatus-5xx-answers-hide-internals',
      'rate-limit-headers',
    ]);
  });

  it('numbers a repeated heading -1, -2, as GitHub does', () => {
    expect([...anchorsOf('## Proration\n### Proration\n#### Proration\n')]).toEqual([
      'proration',
      'proration-1',
      'proration-2',
    ]);
  });

  it('counts explicit <a id> and <a name> anchors, and not headings inside code blocks or HTML in a heading', () => {
    const markdown = [
      '<a id="database-connections"></a>',
      '## Scaling<a name="growing"></a>',
      '```sh',
      '# not a heading',
      '```',
    ].join('\n');
    expect([...anchorsOf(markdown)].sort()).toEqual(['database-connections', 'growing', 'scaling']);
  });
});

describe('docsCitationsIn(text, file)', () => {
  it('finds docs/<page>.md with or without an anchor, also as ../docs/, with its line', () => {
    const text = [
      '// One rule (docs/decisions.md#idempotency-key-scope): keys are per credential.',
      ' * See docs/operations.md, and [testing](../../docs/testing.md#rules).',
      'apps/main-api/docs/other.md is not the repository docs folder.',
    ].join('\n');
    expect(docsCitationsIn(text, 'apps/main-api/src/x.ts')).toEqual([
      { from: 'apps/main-api/src/x.ts', line: 1, target: 'docs/decisions.md', anchor: 'idempotency-key-scope' },
      { from: 'apps/main-api/src/x.ts', line: 2, target: 'docs/operations.md', anchor: undefined },
      { from: 'apps/main-api/src/x.ts', line: 2, target: 'docs/testing.md', anchor: 'rules' },
    ]);
  });
});

describe('markdownLinksIn(markdown, file)', () => {
  it('resolves relative links against the file, keeps same-page anchors, and skips URLs', () => {
    const markdown = [
      'See [operations](operations.md), [a decision](decisions.md#proration) and [below](#scaling).',
      '[site]: https://example.com/docs/decisions.md#x',
      '[pricing](../packages/pricing/README.md#proration-rules), `[not a link](nowhere.md)`',
    ].join('\n');
    expect(markdownLinksIn(markdown, 'docs/security.md')).toEqual([
      { from: 'docs/security.md', line: 1, target: 'docs/operations.md', anchor: undefined },
      { from: 'docs/security.md', line: 1, target: 'docs/decisions.md', anchor: 'proration' },
      { from: 'docs/security.md', line: 1, target: 'docs/security.md', anchor: 'scaling' },
      { from: 'docs/security.md', line: 3, target: 'packages/pricing/README.md', anchor: 'proration-rules' },
    ]);
  });
});

describe('brokenReferences(references, files)', () => {
  const files = fixture({
    'docs/decisions.md': '# Decisions\n\n## Idempotency\n\n### Idempotency key scope\n\nA key belongs to...\n',
    'docs/operations.md': '# Operations\n',
  });
  const code = (text: string) => docsCitationsIn(text, 'packages/x/src/y.ts');

  it('accepts citations of existing pages and anchors', () => {
    const references = code(
      '// docs/decisions.md#idempotency-key-scope, docs/decisions.md#idempotency, docs/operations.md, docs/decisions.md',
    );
    expect(references).toHaveLength(4);
    expect(brokenReferences(references, files)).toEqual([]);
  });

  it('names a citation whose anchor no heading gives, with where it is', () => {
    expect(
      brokenReferences(code('/**\n * Scoped per key (docs/decisions.md#idempotency-key-scop).\n */'), files),
    ).toEqual([
      'packages/x/src/y.ts:2 cites docs/decisions.md#idempotency-key-scop, but no heading of docs/decisions.md has that anchor',
    ]);
  });

  it('names a citation of a page that does not exist, with or without an anchor', () => {
    expect(brokenReferences(code('// docs/architecture.md and docs/errors.md#codes'), files)).toEqual([
      'packages/x/src/y.ts:1 cites docs/architecture.md, but there is no docs/architecture.md',
      'packages/x/src/y.ts:1 cites docs/errors.md#codes, but there is no docs/errors.md',
    ]);
  });

  it('checks Markdown links to other files and to anchors of the same page', () => {
    const markdown = '# Operations\n\n[ok](#operations), [gone](#scaling), [pricing](../packages/pricing/README.md)\n';
    expect(brokenReferences(markdownLinksIn(markdown, 'docs/operations.md'), files)).toEqual([
      'docs/operations.md:3 cites docs/operations.md#scaling, but no heading of docs/operations.md has that anchor',
      'docs/operations.md:3 cites packages/pricing/README.md, but there is no packages/pricing/README.md',
    ]);
  });
});

describe('outsideDecisionCitationsIn(text, file)', () => {
  it('finds citations of the numbered decisions list, which is not in this repository', () => {
    expect(outsideDecisionCitationsIn('// Strict (DECISIONS 4).\n/** (DECISIONS section 6) */', 'a.ts')).toEqual([
      'a.ts:1 cites "DECISIONS 4": cite docs/decisions.md#<anchor> instead',
      'a.ts:2 cites "DECISIONS section 6": cite docs/decisions.md#<anchor> instead',
    ]);
  });
});

describe('the repository', () => {
  const files = sourceFiles(repositoryRoot).filter((file) => file !== THIS_FILE);
  const texts = new Map(files.map((file) => [file, readFileSync(path.join(repositoryRoot, file), 'utf8')]));
  const references = [...texts].flatMap(([file, text]) => referencesIn(file, text));

  it('is read whole: apps, packages, tools, infra, scripts and the docs, code and Markdown', () => {
    for (const file of [
      'README.md',
      'docs/decisions.md',
      'apps/main-api/src/app.ts',
      'packages/http/src/storable-text.ts',
      'tools/bench/src/main.ts',
      'infra/k8s/main-api.yaml',
      'scripts/ci-under-load',
    ]) {
      expect(files).toContain(file);
    }
    expect(files.some((file) => file.includes('node_modules/') || file.includes('/dist/'))).toBe(false);
    const decisionsCitedFromCode = references.filter(
      ({ from, target, anchor }) => from.endsWith('.ts') && target === 'docs/decisions.md' && anchor !== undefined,
    );
    expect(decisionsCitedFromCode.length).toBeGreaterThan(20);
  });

  it('cites only pages and anchors that exist', () => {
    expect(brokenReferences(references, filesUnder(repositoryRoot))).toEqual([]);
  });

  it('cites decisions by their anchor in docs/decisions.md, never by the number of a list outside it', () => {
    const outside = [...texts]
      .filter(([file]) => !file.startsWith(MIGRATIONS))
      .flatMap(([file, text]) => outsideDecisionCitationsIn(text, file));
    expect(outside).toEqual([]);
  });

  it('gives every decision of docs/decisions.md an anchor of its own, which no other heading repeats', () => {
    const slugs = headingSlugs(texts.get('docs/decisions.md') ?? '');
    expect(slugs.length).toBeGreaterThan(100);
    expect(slugs.filter((slug, index) => slugs.indexOf(slug) !== index)).toEqual([]);
  });
});
