import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import rules `corepack pnpm lint` enforces (.dependency-cruiser.cjs) and its unused-code check (knip), each shown to catch what it is for on
// a small made-up repository, so a rule that stops matching (a renamed folder, a broken pattern) fails here.

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
  forbidden: unknown[];
  options: { exclude: { path: string }; enhancedResolveOptions: Record<string, unknown> };
};

/** The repository's own knip (a root dev dependency), run as `corepack pnpm lint` runs it. */
const KNIP = fileURLToPath(new URL('../../node_modules/.bin/knip', import.meta.url));

let root: string;

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

async function violations(...folders: string[]): Promise<string[]> {
  const { output } = await cruise(folders, {
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: config.forbidden } as never,
    exclude: config.options.exclude,
    tsPreCompilationDeps: true,
    enhancedResolveOptions: config.options.enhancedResolveOptions,
    tsConfig: { fileName: join(root, 'tsconfig.json') },
  });
  const { summary } = output as ICruiseResult;
  return summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'import-boundaries-'));
  write({
    // Imports name the compiled .js file, as in the repository; TypeScript's resolution maps them to the .ts source.
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
    // A module in the shape every module has: nothing to report.
    'apps/shop/src/modules/orders/routes.ts':
      "import { placeOrder } from './service.js';\nexport const routes = placeOrder;\n",
    'apps/shop/src/modules/orders/service.ts':
      "import { insertOrder } from './repository.js';\nexport const placeOrder = insertOrder;\n",
    'apps/shop/src/modules/orders/repository.ts':
      "import { orders } from '../../../../../packages/db/src/schema/orders.js';\nexport const insertOrder = orders;\n",
    'packages/db/src/schema/orders.ts': 'export const orders = 1;\n',
    'apps/shop/src/modules/orders/index.ts': "export { placeOrder } from './service.js';\n",
    'packages/db/src/schema/index.ts': 'export const orders = 1;\n',
    // Each of these breaks one rule.
    'apps/shop/src/modules/carts/routes.ts':
      "import { insertCart } from './repository.js';\nexport const routes = insertCart;\n",
    'apps/shop/src/modules/carts/repository.ts': 'export const insertCart = 1;\n',
    'apps/shop/src/modules/carts/service.ts':
      "import { orders } from '../../../../../packages/db/src/schema/index.js';\nimport { placeOrder } from '../orders/service.js';\nexport const cart = [orders, placeOrder];\n",
    'apps/shop/src/modules/invoices/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
    'apps/shop/src/modules/invoices/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    'apps/shop/src/modules/tax/payments/service.ts':
      "import { rate } from '../rates/service.js';\nexport const pay = rate;\n",
    'apps/shop/src/modules/tax/rates/service.ts':
      "import { pay } from '../payments/service.js';\nexport const rate = pay;\n",
    'apps/shop/src/modules/invoices/service.ts':
      "import type { FastifyRequest } from 'fastify';\nexport const invoice = (request: FastifyRequest) => request.id;\n",
    'node_modules/fastify/package.json': JSON.stringify({ name: 'fastify', main: 'fastify.js' }),
    'node_modules/fastify/fastify.js': 'module.exports = {};\n',
    'apps/shop/src/app.ts':
      "import { placeOrder } from './modules/orders/service.js';\nexport const app = placeOrder;\n",
    'apps/other/src/index.ts':
      "import { placeOrder } from '../../shop/src/modules/orders/index.js';\nexport const other = placeOrder;\n",
    // The table owners of packages/db/table-owners.cjs: the organizations' tables are the organizations module's,
    // published to the other service in @platform/organizations.
    'packages/db/src/schema/organizations.ts': 'export const organizations = 1;\n',
    'apps/main-api/src/modules/organizations/repository.ts':
      "import { organizations } from '../../../../../packages/db/src/schema/organizations.js';\nexport const own = organizations;\n",
    'packages/organizations/src/repository.ts':
      "import { organizations } from '../../db/src/schema/organizations.js';\nexport const published = organizations;\n",
    'apps/main-api/src/modules/audit/repository.ts':
      "import { organizations } from '../../../../../packages/db/src/schema/organizations.js';\nexport const theirs = organizations;\n",
    'apps/main-api/src/modules/audit/events-repository.ts':
      "import { orders } from '../../../../../packages/db/src/schema/index.js';\nexport const all = orders;\n",
    'packages/util/src/index.ts':
      "import { other } from '../../../apps/other/src/index.js';\nexport const util = other;\n",
  });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the import rules of corepack pnpm lint', () => {
  let found: string[];
  beforeAll(async () => {
    found = await violations('apps', 'packages');
  });

  it('let a module in the usual shape pass', () => {
    expect(found.filter((line) => line.split(' ')[1]?.startsWith('apps/shop/src/modules/orders/'))).toEqual([]);
  });

  it('refuse a route that imports a repository', () => {
    expect(found).toContain(
      'routes-never-import-repositories: apps/shop/src/modules/carts/routes.ts -> apps/shop/src/modules/carts/repository.ts',
    );
  });

  it('refuse tables outside a repository', () => {
    expect(found).toContain(
      'sql-only-in-repositories: apps/shop/src/modules/carts/service.ts -> packages/db/src/schema/index.ts',
    );
  });

  it("refuse a module reaching into another's files instead of its index", () => {
    expect(found).toContain(
      'modules-only-through-their-index: apps/shop/src/modules/carts/service.ts -> apps/shop/src/modules/orders/service.ts',
    );
  });

  it("refuse a sub-module reaching into a sibling's files instead of its index", () => {
    expect(found).toContain(
      'sub-modules-only-through-their-index: apps/shop/src/modules/tax/payments/service.ts -> apps/shop/src/modules/tax/rates/service.ts',
    );
  });

  it("refuse the app's frame reaching into a module's files instead of its index", () => {
    expect(found).toContain(
      'app-frame-uses-modules-through-their-index: apps/shop/src/app.ts -> apps/shop/src/modules/orders/service.ts',
    );
  });

  it('refuse a service that knows Fastify', () => {
    expect(found).toContain(
      'services-know-no-http: apps/shop/src/modules/invoices/service.ts -> node_modules/fastify/fastify.js',
    );
  });

  it('refuse a cycle between files, and one between folders', () => {
    expect(found).toEqual(
      expect.arrayContaining([expect.stringMatching(/^no-cycles: apps\/shop\/src\/modules\/invoices\/a\.ts -> /)]),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^no-folder-cycles: apps\/shop\/src\/modules\/tax\/(payments|rates)/),
      ]),
    );
  });

  it('refuse an app importing another app, and a package importing an app', () => {
    expect(found).toContain(
      'apps-never-import-other-apps: apps/other/src/index.ts -> apps/shop/src/modules/orders/index.ts',
    );
    expect(found).toContain('packages-never-import-apps: packages/util/src/index.ts -> apps/other/src/index.ts');
  });
});

describe('the table owners of corepack pnpm lint', () => {
  let found: string[];
  beforeAll(async () => {
    found = await violations('apps/main-api', 'packages/organizations');
  });

  it("refuse a repository importing another owner's table", () => {
    expect(found).toContain(
      'table-owner:organizations: apps/main-api/src/modules/audit/repository.ts -> packages/db/src/schema/organizations.ts',
    );
  });

  it("let the owner's repositories and its publisher's import it", () => {
    expect(
      found.filter((line) => line.includes('/organizations/src/') || line.includes('modules/organizations/')),
    ).toEqual([]);
  });

  it('refuse the whole schema in shipped code', () => {
    expect(found).toContain(
      'no-whole-schema-import: apps/main-api/src/modules/audit/events-repository.ts -> packages/db/src/schema/index.ts',
    );
  });
});

describe('the unused-code check of corepack pnpm lint', () => {
  it('refuses an export nothing imports', () => {
    const project = mkdtempSync(join(tmpdir(), 'unused-exports-'));
    try {
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'shop', type: 'module', private: true }));
      writeFileSync(join(project, 'knip.json'), JSON.stringify({ entry: ['src/index.ts'], project: ['src/**/*.ts'] }));
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'src/index.ts'), "import { total } from './prices.js';\nconsole.log(total);\n");
      writeFileSync(join(project, 'src/prices.ts'), 'export const total = 1;\nexport const forgotten = 2;\n');
      const knip = spawnSync(KNIP, ['--directory', project, '--no-config-hints', '--no-progress'], {
        encoding: 'utf8',
      });
      expect(knip.status).toBe(1);
      expect(knip.stdout).toMatch(/Unused exports \(1\)\s+forgotten\s+src\/prices\.ts/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
