import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { REPO_ROOT } from './data-dir.js';
import type { RunningServices } from './in-process.js';
import { backendApiEnv, type LocalSettings, mainApiEnv } from './service-env.js';

/** Starts a service's own server.ts, exactly as production runs it, with its output passed through. */
function startService(app: 'main-api' | 'backend-api', env: NodeJS.ProcessEnv): ChildProcess {
  const server = path.join(REPO_ROOT, 'apps', app, 'src', 'server.ts');
  return spawn(process.execPath, ['--conditions=source', '--import', 'tsx', server], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url} exited with code ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} was not ready within ${timeoutMs / 1000} s`);
}

/** Each service as its own process on PostgreSQL (and Redis when set), as in production. */
export async function startAsProcesses(settings: LocalSettings): Promise<RunningServices> {
  const children = [
    startService('backend-api', backendApiEnv(settings)),
    startService('main-api', mainApiEnv(settings)),
  ];
  const stop = async () => {
    await Promise.all(
      children
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map(async (child) => {
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          await exited;
        }),
    );
  };
  const mainUrl = `http://localhost:${settings.mainPort}`;
  const backendUrl = `http://localhost:${settings.backendPort}`;
  try {
    await Promise.all([waitUntilReady(backendUrl, children[0]!), waitUntilReady(mainUrl, children[1]!)]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { mainUrl, backendUrl, stop };
}
