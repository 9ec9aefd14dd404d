// Installs the workspace's dependencies when they are missing or out of date, so that a fresh
// clone needs only `pnpm start` or `pnpm test`. pnpm finishes in about a second when nothing changed.
import { spawnSync } from 'node:child_process';

const pnpm = process.env.npm_execpath;
const [command, args] =
  pnpm && /pnpm/.test(pnpm)
    ? [process.execPath, [pnpm, 'install', '--frozen-lockfile', '--prefer-offline']]
    : ['corepack', ['pnpm', 'install', '--frozen-lockfile', '--prefer-offline']];

const result = spawnSync(command, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
