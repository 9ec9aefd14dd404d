import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalCredentials } from './credentials.js';
import { REPO_ROOT } from './data-dir.js';

// Starts the local start exactly as the README tells a newcomer to (`pnpm start`), on free ports
// and a scratch data folder, and calls the API with the credentials it prints.

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Started {
  child: ChildProcess;
  credentials: LocalCredentials;
  output: string;
}

async function start(dataDir: string, extraArgs: string[] = []): Promise<Started> {
  const [mainPort, backendPort] = [await freePort(), await freePort()];
  const child = spawn('corepack', ['pnpm', 'start', ...extraArgs], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
      LOCAL_DATA_DIR: dataDir,
      MAIN_PORT: String(mainPort),
      BACKEND_PORT: String(backendPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so Ctrl-C can be sent to the whole tree (corepack, pnpm, tsx, node).
    detached: true,
  });
  let output = '';
  const credentialsPath = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`local start did not print credentials:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Credentials file: (.+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].trim());
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local start exited with ${code}:\n${output}`));
    });
  });
  const credentials = JSON.parse(readFileSync(credentialsPath, 'utf8')) as LocalCredentials;
  return { child, credentials, output };
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    started.child.once('exit', () => resolve());
    process.kill(-started.child.pid!, 'SIGINT');
  });
}

describe('the one-command local start', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'local-start-'));
  const running: Started[] = [];
  afterAll(async () => {
    await Promise.all(running.map(stop));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the demo profile with the printed token and keeps its data across restarts', async () => {
    const first = await start(dataDir);
    running.push(first);
    const { credentials } = first;
    expect(first.output).toContain(credentials.token);
    expect(first.output).toContain(credentials.liveApiKey);

    const me = await fetch(`${credentials.mainUrl}/v1/accounts/me`, {
      headers: { authorization: `Bearer ${credentials.token}` },
    });
    expect(me.status).toBe(200);
    const body = (await me.json()) as { success: boolean; data: { email: string; kycStatus: string } };
    expect(body.success).toBe(true);
    expect(body.data.email).toBe('demo@example.com');
    expect(body.data.kycStatus).toBe('unverified');

    const other = await fetch(`${credentials.mainUrl}/v1/accounts/me`, {
      headers: { authorization: `Bearer ${credentials.otherToken}` },
    });
    expect(((await other.json()) as { data: { email: string } }).data.email).not.toBe('demo@example.com');

    for (const url of [credentials.mainUrl, credentials.backendUrl]) {
      const openapi = await fetch(`${url}/openapi.json`);
      expect(openapi.status).toBe(200);
      expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    }
    expect(credentials.liveApiKey).toMatch(/^sk_live_/);
    expect(credentials.testApiKey).toMatch(/^sk_test_/);

    // A profile change survives a restart; so do the API keys.
    const patch = await fetch(`${credentials.mainUrl}/v1/accounts/me`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${credentials.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Restarted' }),
    });
    expect(patch.status).toBe(200);
    await stop(first);

    const second = await start(dataDir);
    running.push(second);
    expect(second.credentials.liveApiKey).toBe(credentials.liveApiKey);
    const again = await fetch(`${second.credentials.mainUrl}/v1/accounts/me`, {
      headers: { authorization: `Bearer ${second.credentials.token}` },
    });
    expect(((await again.json()) as { data: { name: string } }).data.name).toMatch(/^Restarted /);
    await stop(second);

    // --fresh starts empty: the old keys are gone and new ones are printed.
    const fresh = await start(dataDir, ['--', '--fresh']);
    running.push(fresh);
    expect(fresh.credentials.liveApiKey).not.toBe(credentials.liveApiKey);
    const reset = await fetch(`${fresh.credentials.mainUrl}/v1/accounts/me`, {
      headers: { authorization: `Bearer ${fresh.credentials.token}` },
    });
    expect(((await reset.json()) as { data: { name: string } }).data.name).not.toMatch(/^Restarted /);
    await stop(fresh);
  }, 240_000);
});
