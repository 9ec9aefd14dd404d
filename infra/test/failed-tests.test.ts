// scripts/failed-tests, which .ci/run calls when the suites fail: the failures printed again at the end of the log.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SUBPROCESS_TIMEOUT_MS } from '#test-timing';

const SCRIPT = fileURLToPath(new URL('../../scripts/failed-tests', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'failed-tests-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let logs = 0;

/** Runs the script on a log with these lines; its output. */
function failuresOf(lines: string[]): string {
  logs += 1;
  const log = join(folder, `test-${logs}.log`);
  writeFileSync(log, `${lines.join('\n')}\n`);
  const run = spawnSync('bash', [SCRIPT, log], { encoding: 'utf8', timeout: SUBPROCESS_TIMEOUT_MS });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

const red = (text: string) => `\x1b[31m${text}\x1b[39m`;

describe('scripts/failed-tests', () => {
  it("prints each failed task's own output: vitest's failures for a test, the end for a type-check", () => {
    const printed = failuresOf([
      '@platform/a:test:  ✓ src/x.test.ts (3 tests) 20ms',
      '@platform/b:test:    × does a thing 10ms',
      `@platform/b:test: ${red('⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯')}`,
      '@platform/b:test:  FAIL  src/y.test.ts > does a thing',
      '@platform/a:test:  Test Files  1 passed (1)',
      '@platform/b:test: AssertionError: expected 1 to be 2',
      '@platform/b:test:  Test Files  1 failed (1)',
      "@platform/c:typecheck: src/z.ts(3,1): error TS2304: Cannot find name 'q'.",
      ' Tasks:    2 successful, 4 total',
      red('Failed:    @platform/b#test, @platform/c#typecheck'),
    ]);
    expect(printed).toBe(
      [
        '',
        '=== @platform/b#test failed:',
        '⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯',
        ' FAIL  src/y.test.ts > does a thing',
        'AssertionError: expected 1 to be 2',
        ' Test Files  1 failed (1)',
        '',
        '=== @platform/c#typecheck failed:',
        "src/z.ts(3,1): error TS2304: Cannot find name 'q'.",
        '',
      ].join('\n'),
    );
  });

  it('prints the end of the log when it names no failed task (turbo itself failed)', () => {
    const printed = failuresOf(['installing', ' ERROR  run failed: no turbo.json']);
    expect(printed).toContain('No failed task named in the log');
    expect(printed).toContain(' ERROR  run failed: no turbo.json');
  });
});
