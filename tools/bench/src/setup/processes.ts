import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A server the bench started in a process of its own. */
export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** Where its stdout and stderr go. */
  logFile: string;
  /** The last lines of its log. */
  logTail(lines?: number): string;
  /** Resident set size in KiB (VmRSS of /proc/<pid>/status). */
  rssKib(): number;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  /** Arguments to node (a script and its flags). */
  args: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  /** Where the process's stdout and stderr go (a log file), so the bench never has to read them. */
  logFile: string;
  cwd: string;
  /** Path answering 200 once the server is up. */
  readyPath?: string;
  timeoutMs?: number;
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Starts `node <args>` and resolves once `readyPath` answers 200. */
export async function startServerProcess(options: StartOptions): Promise<ServerProcess> {
  const log = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name} did not start`);
  const url = `http://127.0.0.1:${options.port}`;
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `${options.name} exited (${signal ?? code}); see ${options.logFile}`;
  });

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (exited !== undefined) throw new Error(exited);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not answer ${options.readyPath ?? '/'} in time; see ${options.logFile}`);
    }
    const ready = await fetch(`${url}${options.readyPath ?? '/'}`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    name: options.name,
    url,
    pid,
    logFile: options.logFile,
    logTail: (lines = 20) => readFileSync(options.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n'),
    rssKib: () => rssKibOf(pid),
    stop: () => stopProcess(child),
  };
}

function rssKibOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (match?.[1] === undefined) throw new Error(`No VmRSS for process ${pid}`);
  return Number(match[1]);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
