import os from 'node:os';
import { Redis } from 'ioredis';
import { postgresVersion } from '../setup/database.js';
import type { MachineDescription } from './markdown.js';

/** The machine, runtime and servers a run measured on, for the report. */
export async function describeMachine(databaseUrl: string, redisUrl: string): Promise<MachineDescription> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown CPU',
    cpuCount: cpus.length,
    memoryGib: os.totalmem() / 1024 ** 3,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.versions.node,
    postgres: await postgresVersion(databaseUrl),
    redis: await redisVersion(redisUrl),
  };
}

async function redisVersion(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } finally {
    redis.disconnect();
  }
}
