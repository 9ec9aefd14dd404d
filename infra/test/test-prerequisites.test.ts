// The guard every suite that needs a server or a browser uses (vitest.prerequisites.ts at the repository
// root): skip with a reason on a developer's machine, fail in CI.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { chromiumBrowser, missing, type Prerequisite, postgresServer } from '#test-prerequisites';

const present: Prerequisite = { description: 'something present', available: () => true };
const absent = (what: string): Prerequisite => ({ description: what, available: () => false });

describe('missing(...prerequisites)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('is false, silently, when everything is there, in CI or not', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubEnv('CI', 'true');
    expect(missing(present)).toBe(false);
    vi.stubEnv('CI', '');
    expect(missing(present)).toBe(false);
    expect(warn).not.toHaveBeenCalled();
  });

  it('outside CI skips and prints the reason once, however many suites ask', () => {
    vi.stubEnv('CI', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const server = absent('A_SERVER_URL (a server)');
    expect(missing(present, server)).toBe(true);
    expect(missing(server)).toBe(true);
    expect(warn.mock.calls).toEqual([['Skipping tests that need A_SERVER_URL (a server)']]);
  });

  it.each(['true', 'TRUE', '1'])('with CI=%s fails loudly instead of skipping, naming everything missing', (ci) => {
    vi.stubEnv('CI', ci);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(() => missing(absent('FIRST_URL'), present, absent('a browser'))).toThrow(
      'CI=true, but these tests need FIRST_URL and a browser, which is not available: provide it instead of skipping',
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it('with CI=false (or unset) skips', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubEnv('CI', 'false');
    expect(missing(absent('ANOTHER_URL'))).toBe(true);
  });

  it('reads DATABASE_URL and CHROMIUM_PATH when asked, not when imported', () => {
    vi.stubEnv('DATABASE_URL', '');
    expect(postgresServer.available()).toBe(false);
    vi.stubEnv('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/postgres');
    expect(postgresServer.available()).toBe(true);

    vi.stubEnv('CHROMIUM_PATH', '/nonexistent/chromium');
    expect(chromiumBrowser.available()).toBe(false);
    expect(chromiumBrowser.description).toContain('/nonexistent/chromium');
    vi.stubEnv('CHROMIUM_PATH', process.execPath);
    expect(chromiumBrowser.available()).toBe(true);
  });
});
