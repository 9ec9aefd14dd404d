// Import boundaries (each rule's comment says why): `corepack pnpm lint` runs this over apps, packages and tools.
const tableOwners = require('./packages/db/table-owners.cjs');

const literally = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The repository files (repository.ts, <name>-repository.ts) anywhere under a module or package folder. */
const repositoriesUnder = (folder) => `^${literally(folder)}(/|/.*[/-])repository\\.ts$`;

/** One rule per schema file of packages/db/table-owners.cjs: only its owner's (and publisher's) repositories. */
const oneOwnerPerTable = Object.entries(tableOwners).map(([file, { owner, publishedIn }]) => ({
  name: `table-owner:${file}`,
  severity: 'error',
  comment:
    `The tables of schema/${file}.ts belong to ${owner}${publishedIn ? ` (published in ${publishedIn})` : ''}: ` +
    "only its repositories import them; other code goes through the owner's index.ts " +
    '(docs/decisions.md#one-owner-per-table).',
  from: {
    path: '^(apps|packages)/',
    pathNot: [repositoriesUnder(owner), ...(publishedIn ? [repositoriesUnder(publishedIn)] : []), '^packages/db/'],
  },
  to: { path: `^packages/db/src/schema/${literally(file)}\\.ts$` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...oneOwnerPerTable,
    {
      name: 'no-whole-schema-import',
      severity: 'error',
      comment:
        'Shipped code imports the schema file of the tables it owns (@platform/db/schema/<file>), never the whole ' +
        'schema (@platform/db/schema): the owner rules above see which table it uses. drizzle-kit, the database ' +
        'package, tests and tools/ may read it all.',
      from: { path: '^(apps|packages)/', pathNot: '^packages/db/' },
      to: { path: '^packages/db/src/schema/index\\.ts$' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Modules import each other one way; a cycle means one of them holds what belongs to the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Folders (modules and their sub-modules) depend on each other one way too: a port breaks a cycle.',
      scope: 'folder',
      from: { path: '^apps/[^/]+/src/modules/' },
      to: { circular: true },
    },
    {
      name: 'packages-never-import-apps',
      severity: 'error',
      comment: 'Packages are shared by the apps and know nothing of them.',
      from: { path: '^packages/' },
      to: { path: '^(apps|tools)/' },
    },
    {
      name: 'apps-never-import-other-apps',
      severity: 'error',
      comment: 'Each service deploys alone; what both need lives in a package.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'routes-never-import-repositories',
      severity: 'error',
      comment: 'A route calls its service; only services use repositories (routes -> service -> repository).',
      from: { path: '(^|/)routes\\.ts$' },
      to: { path: '(^|/)repository\\.ts$' },
    },
    {
      name: 'services-know-no-http',
      severity: 'error',
      comment:
        'A service holds the domain operations: it takes plain values and knows nothing of Fastify, so a job, the CLI ' +
        'or another module can call it as a route does.',
      from: { path: '(^|/)service\\.ts$' },
      to: { path: 'node_modules/(fastify|@fastify/[^/]+)/' },
    },
    {
      name: 'sql-only-in-repositories',
      severity: 'error',
      comment:
        'Queries live in repository.ts files (query helpers shared by several, in <name>-repository.ts): only they ' +
        'use drizzle-orm or the tables (@platform/db/schema). ' +
        'The database package itself (schema, migrations, client) is where they come from.',
      from: { path: '^(apps|packages)/', pathNot: ['repository\\.ts$', '^packages/db/'] },
      to: { path: ['node_modules/drizzle-orm/', '^packages/db/src/schema/'] },
    },
    {
      name: 'modules-only-through-their-index',
      severity: 'error',
      comment: "A module uses another module only through that module's index.ts, never its files.",
      from: { path: '^apps/([^/]+)/src/modules/([^/]+)/' },
      to: {
        path: '^apps/$1/src/modules/([^/]+)/',
        pathNot: ['^apps/$1/src/modules/$2/', '^apps/$1/src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'sub-modules-only-through-their-index',
      severity: 'error',
      comment:
        "Inside a module, a sub-module (billing/payments, billing/subscriptions) uses a sibling only through the sibling's " +
        'index.ts, as modules use each other.',
      from: { path: '^apps/([^/]+)/src/modules/([^/]+)/([^/]+)/' },
      to: {
        path: '^apps/$1/src/modules/$2/[^/]+/',
        pathNot: ['^apps/$1/src/modules/$2/$3/', '^apps/$1/src/modules/$2/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'app-frame-uses-modules-through-their-index',
      severity: 'error',
      comment:
        "The service's frame (app.ts, config.ts, plugins, the CLI) uses a module, or a sub-module it registers itself, " +
        "only through that module's index.ts.",
      from: { path: '^apps/([^/]+)/src/', pathNot: '^apps/[^/]+/src/modules/' },
      to: {
        path: '^apps/$1/src/modules/',
        pathNot: ['^apps/$1/src/modules/[^/]+/index\\.ts$', '^apps/$1/src/modules/[^/]+/[^/]+/index\\.ts$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // What ships: tests and their support code may cross these lines (a test of two services together).
    exclude: { path: '(^|/)(dist|coverage|test)/|\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: false,
    preserveSymlinks: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
