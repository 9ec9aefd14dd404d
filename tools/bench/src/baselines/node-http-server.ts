// The floor of the machine: node:http answering each endpoint's recorded bytes without doing anything else.
import { createServer } from 'node:http';
import { baselinePath, type CannedResponse, readSpecFromArgs } from './spec.js';

const spec = readSpecFromArgs();
const responses = new Map<string, CannedResponse>();
for (const route of spec.routes) responses.set(`${route.method} ${baselinePath(route.id, route.path)}`, route.response);

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?', 1)[0];
  const canned = responses.get(`${request.method} ${path}`);
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
