import { describe, expect, it } from 'vitest';
import { referencedVariables } from './compose-env.js';
import { composeStrings } from './deployment-files.js';
import { composeService, composeServices, composeVariables } from './deployment-fixtures.js';

describe('compose', () => {
  it('runs PostgreSQL 16 and Redis 7 with health checks', () => {
    expect(composeService('postgres').image).toBe('postgres:16');
    expect(composeService('postgres').healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(composeService('redis').image).toBe('redis:7');
    expect(composeService('redis').healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(Object.keys(composeServices).sort()).toEqual(['backend-api', 'main-api', 'migrate', 'postgres', 'redis']);
  });

  it('takes its variables from compose.env.example, which holds no variable compose.yaml does not use', () => {
    const used = new Set(composeStrings().flatMap((text) => [...referencedVariables(text)]));
    expect(
      [...used].filter((name) => !composeVariables.has(name)),
      'used but not in the example',
    ).toEqual([]);
    expect(
      [...composeVariables.keys()].filter((name) => !used.has(name)),
      'in the example but unused',
    ).toEqual([]);
    for (const [name, value] of composeVariables) {
      if (/SECRET|PASSWORD|TOKEN/.test(name) && value !== '') expect(value, name).toContain('REPLACE_ME');
    }
  });
});
