import { compareRoutesWithOpenApi } from '@platform/http';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app-fixtures.js';

// OWASP API9 (inventory): what the service answers and what /openapi.json documents are the same set, except
// these, left out on purpose.
const UNDOCUMENTED = [
  'GET /openapi.json', // the document itself
  'GET /metrics', // Prometheus scrape, for operators
  'GET /session/:id', // the hosted verification page for end users (HTML, at {verify_url})
  'POST /session/:id', // its forms (consent, review, sandbox)
  'POST /session/:id/documents', // its capture form's multipart upload
];

const t = useTestApp();

describe('route inventory (backend-api)', () => {
  it('documents every route it serves, but the listed ones, and serves every documented one', async () => {
    const { notDocumented, notServed } = await compareRoutesWithOpenApi(t.app);
    expect(notDocumented.sort()).toEqual([...UNDOCUMENTED].sort());
    expect(notServed).toEqual([]);
  });
});
