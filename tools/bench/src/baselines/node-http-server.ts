// The floor of the machine: node:http answering each endpoint's recorded bytes without doing anything else.
import { createServer } from 'node:http';
import { baselinePath, type CannedResponse, readSpecFromArgs, routeParams } from './spec.js';

const spec = readSpecFromArgs();
const responses = new Map<string, CannedResponse>();
// Routes with path parameters are matched segment by segment, after the exact paths.
const patterns: Array<{ method: string; pattern: string; response: CannedResponse }> = [];
for (const route of spec.routes) {
  const path = baselinePath(route.id, route.path);
  if (path.includes('/:')) patterns.push({ method: route.method, pattern: path, response: route.response });
  else responses.set(`${route.method} ${path}`, route.response);
}

function cannedFor(method: string | undefined, path: string): CannedResponse | undefined {
  const exact = responses.get(`${method} ${path}`);
  if (exact !== undefined) return exact;
  return patterns.find((entry) => entry.method === method && routeParams(entry.pattern, path) !== undefined)?.response;
}

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
  const canned = cannedFor(request.method, path);
  request.resume();
  request.once('end', () => {
    if (canned === undefined) {
      response.writeHead(path === '/healthz' ? 200 : 404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    response
      .writeHead(canned.statusCode, {
        'content-type': canned.contentType,
        'content-length': Buffer.byteLength(canned.body),
      })
      .end(canned.body);
  });
});

server.listen(spec.port, '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
