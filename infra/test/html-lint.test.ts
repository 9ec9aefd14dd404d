import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The rule of `corepack pnpm lint` that keeps HTML in the template layer (biome-plugins/no-hand-written-html.grit,
// docs/decisions.md#html-templates), shown to refuse each way of writing HTML by hand on a small made-up repository,
// and to let the layer itself, tests and plain text pass.

/** The repository's own Biome, run as `corepack pnpm lint` runs it. */
const BIOME = fileURLToPath(import.meta.resolve('@biomejs/biome/bin/biome'));
const PLUGIN = fileURLToPath(new URL('../../biome-plugins/no-hand-written-html.grit', import.meta.url));

let root: string;
/** `path:line` of every diagnostic of the rule. */
let refused: string[];

const files: Record<string, string> = {
  // Each of these writes HTML by hand.
  'apps/shop/src/modules/orders/escape.ts':
    "export function escapeHtml(text: string) {\n  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');\n}\n",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the example is the source of a template string
  'apps/shop/src/modules/orders/page.ts': 'export const page = (name: string) => `<p>Hello ${name}</p>`;\n',
  'apps/shop/src/modules/orders/frame.ts': 'export const frame = \'<!doctype html><html lang="en">\';\n',
  'apps/shop/src/modules/orders/library.ts': "import escape from 'escape-html';\nexport const safe = escape;\n",
  'apps/shop/src/modules/orders/around.tsx':
    "import { raw } from 'hono/html';\nexport const Note = ({ note }: { note: string }) => <div dangerouslySetInnerHTML={{ __html: note }} />;\nexport const loud = raw;\n",
  // None of these does.
  'apps/shop/src/modules/carts/page.tsx':
    'export const Cart = ({ name }: { name: string }) => <p title={name}>{name} &amp; co</p>;\n',
  'apps/shop/src/modules/carts/text.ts':
    'export const help = \'Send -H "Authorization: Bearer <your token>", and a < b & c;\';\n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the example is the source of a template string
  'packages/templates/src/escape.ts': "export const entity = '&lt;';\nexport const tag = `<p>${entity}</p>`;\n",
  'apps/shop/src/modules/carts/page.test.ts': "export const expected = '<p>Tom &amp; Jerry</p>';\n",
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'html-lint-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'biome.json',
    JSON.stringify({
      plugins: [PLUGIN],
      linter: { rules: { preset: 'none' } },
      formatter: { enabled: false },
      assist: { enabled: false },
    }),
  );
  for (const [path, text] of Object.entries(files)) write(path, text);
  const biome = spawnSync(BIOME, ['lint', '--max-diagnostics=1000', '--colors=off', '.'], {
    cwd: root,
    encoding: 'utf8',
  });
  const output = `${biome.stdout}\n${biome.stderr}`;
  refused = [...output.matchAll(/^(\S+):(\d+):\d+ plugin/gm)].map((match) => `${match[1]}:${match[2]}`);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the HTML rule of corepack pnpm lint', () => {
  it('refuses an escaping function and the entities it writes', () => {
    expect(refused).toEqual(
      expect.arrayContaining(['apps/shop/src/modules/orders/escape.ts:1', 'apps/shop/src/modules/orders/escape.ts:2']),
    );
  });

  it('refuses HTML in a template string and in a string', () => {
    expect(refused).toContain('apps/shop/src/modules/orders/page.ts:1');
    expect(refused).toContain('apps/shop/src/modules/orders/frame.ts:1');
  });

  it('refuses the ways around the layer: an escaping library, raw and dangerouslySetInnerHTML', () => {
    expect(refused).toContain('apps/shop/src/modules/orders/library.ts:1');
    expect(refused).toEqual(
      expect.arrayContaining([
        'apps/shop/src/modules/orders/around.tsx:1',
        'apps/shop/src/modules/orders/around.tsx:2',
      ]),
    );
  });

  it('lets JSX, plain text, the template layer itself and tests pass', () => {
    const passed = ['apps/shop/src/modules/carts/', 'packages/templates/'];
    expect(refused.filter((line) => passed.some((folder) => line.startsWith(folder)))).toEqual([]);
  });
});
