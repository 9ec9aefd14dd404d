import { readFileSync } from 'node:fs';
import type { SqlTemplate } from '../sql/template.js';

/** What a service answered to one real request: the baselines answer exactly these bytes. */
export interface CannedResponse {
  statusCode: number;
  contentType: string;
  body: string;
}

export interface BaselineRoute {
  /** The route is served under `/<id>` + the endpoint's path, so endpoints sharing a path stay apart. */
  id: string;
  method: 'GET' | 'POST';
  /**
   * The endpoint's route without its query string: a path, or a pattern whose `:name` segments each match any one
   * segment (`/v1/reviews/:sessionId/decision`) when every request names another resource.
   */
  path: string;
  response: CannedResponse;
  /** Present for the same-SQL baseline: the statements to run before answering. */
  template?: SqlTemplate;
}

export interface BaselineSpec {
  port: number;
  routes: BaselineRoute[];
  /** The same-SQL baseline's database and pool size (the services' pool size). */
  databaseUrl?: string;
  poolSize?: number;
}

/** The path a baseline serves an endpoint's route at. */
export function baselinePath(id: string, endpointPath: string): string {
  return `/${id}${endpointPath}`;
}

/**
 * The values of `pattern`'s `:name` segments in `path` (its query string ignored), or undefined when the path does
 * not match the pattern.
 */
export function routeParams(pattern: string, path: string): Record<string, string> | undefined {
  const wanted = pattern.split('/');
  const given = (path.split('?', 1)[0] ?? '').split('/');
  if (wanted.length !== given.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of wanted.entries()) {
    const actual = given[index]!;
    if (segment.startsWith(':')) {
      if (actual === '') return undefined;
      params[segment.slice(1)] = decodeURIComponent(actual);
    } else if (segment !== actual) {
      return undefined;
    }
  }
  return params;
}

/** Reads the spec file named by the first command-line argument. */
export function readSpecFromArgs(): BaselineSpec {
  const file = process.argv[2];
  if (file === undefined) throw new Error('Usage: <baseline server> <spec.json>');
  return JSON.parse(readFileSync(file, 'utf8')) as BaselineSpec;
}
