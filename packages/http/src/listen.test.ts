import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createServer } from './create-server.js';
import { listen } from './listen.js';

type LogLine = { msg?: string; address?: string; signal?: string };

const fixture = fileURLToPath(new URL('../test/listen-fixture.ts', import.meta.url));

function startFixture() {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fixture], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const entry = JSON.parse(line) as LogLine;
        logs.push(entry);
        if (entry.msg?.startsWith('listening on') && entry.address !== undefined) resolve(entry.address);
      }
    });
    child.once('exit', (code) => reject(new Error(`fixture exited early (${code}): ${stderr}`)));
  });
  return { child, logs, listening };
}

describe('listen', () => {
  it('serves requests, logs its address and shuts down gracefully on SIGTERM', async () => {
    const { child, logs, listening } = startFixture();
    const address = await listening;
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const response = await fetch(`${address}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    const messages = logs.map((line) => line.msg);
    expect(logs.find((line) => line.msg === 'shutting down')?.signal).toBe('SIGTERM');
    // Lines of one process can reach the pipe out of order, so only their presence is checked.
    expect(messages).toEqual(expect.arrayContaining(['resources released', 'shutdown complete']));
  });

  it('removes its signal handlers when the server is closed another way', async () => {
    const before = process.listenerCount('SIGTERM');
    const app = createServer({ service: { name: 's', version: '1', description: 'd' }, logger: false });
    await listen(app, { host: '127.0.0.1', port: 0 });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    await app.close();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
