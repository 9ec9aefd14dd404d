import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from '#test-timing';
import type { ParsedCommand } from './command.js';
import { answerCommand, commandDatabaseTarget } from './database.js';

describe('the database a command works on', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'command-database-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** A command that records whether it got as far as the database. */
  function probe(): { parsed: ParsedCommand; ran: () => boolean } {
    let ran = false;
    return {
      parsed: {
        execute: async () => {
          ran = true;
          return { exitCode: 0, lines: ['done'] };
        },
      },
      ran: () => ran,
    };
  }

  it('is DATABASE_URL when set, shown without its password', () => {
    expect(
      commandDatabaseTarget({ DATABASE_URL: 'postgres://app:s3cret@db:5432/platform', LOCAL_DATA_DIR: scratch }),
    ).toEqual({
      url: 'postgres://app:s3cret@db:5432/platform',
      description: 'PostgreSQL at postgres://app:***@db:5432/platform',
    });
    expect(commandDatabaseTarget({ DATABASE_URL: '', LOCAL_DATA_DIR: scratch })).toEqual({
      dataDir: path.join(scratch, 'pglite'),
      description: `the PGlite folder ${path.join(scratch, 'pglite')}`,
    });
  });

  it('answers help and mistakes without opening anything', async () => {
    const answer = { exitCode: 2, lines: ['--organization is required'] };
    expect(await answerCommand(answer, { env: { DATABASE_URL: '', LOCAL_DATA_DIR: path.join(scratch, 'none') } })).toBe(
      answer,
    );
  });

  it('refuses to open the PGlite folder of a local start that is running', async () => {
    const dataDir = path.join(scratch, 'running');
    mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
    const server: Server = createServer((_request, response) => response.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address();
      const backendUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      writeFileSync(path.join(dataDir, 'local-credentials.json'), JSON.stringify({ backendUrl }));
      const command = probe();
      const result = await answerCommand(command.parsed, {
        env: { DATABASE_URL: '', PGLITE_DATA_DIR: '', LOCAL_DATA_DIR: dataDir },
      });
      expect(result).toEqual({
        exitCode: 1,
        lines: [
          `The local start seems to be running (${backendUrl} answers) and ${path.join(dataDir, 'pglite')} is its database, which one process at a time can open: stop it first (Ctrl-C), then run this again`,
        ],
      });
      expect(command.ran()).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('says which database it could not reach, in one line', async () => {
    const command = probe();
    // Nothing listens on that port, so the connection is refused at once.
    const port = await closedPort();
    const result = await answerCommand(command.parsed, {
      env: { DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${port}/platform` },
    });
    expect(result.exitCode).toBe(1);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(
      new RegExp(`^Could not open PostgreSQL at postgres://app:\\*\\*\\*@127\\.0\\.0\\.1:${port}/platform: \\S`),
    );
    expect(result.lines[0]).not.toMatch(/s3cret|Failed query|\n/);
    expect(command.ran()).toBe(false);
  });
});
