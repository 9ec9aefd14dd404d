// Installs the workspace's dependencies when they are missing or out of date, so that a fresh
// clone needs only `pnpm start` or `pnpm test`. pnpm finishes in about a second when nothing changed.
import { spawnSync } from 'node:child_process';

// The local-start test runs `pnpm start` while other test tasks run from the same node_modules: an install there
// would rewrite the bin shims under them (a `tsc` caught half-written answers "Permission denied"), so it skips it.
if (process.env.SKIP_ENSURE_INSTALL === 'true') process.exit(0);

const pnpm = process.env.npm_execpath;
const [command, args] =
  pnpm && /pnpm/.test(pnpm)
    ? [process.execPath, [pnpm, 'install', '--frozen-lockfile', '--prefer-offline']]
    : ['corepack', ['pnpm', 'install', '--frozen-lockfile', '--prefer-offline']];

const result = spawnSync(command, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
