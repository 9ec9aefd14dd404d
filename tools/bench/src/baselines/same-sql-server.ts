// The same-SQL baseline: a bare Fastify server (no plugins, no logging, no validation) whose routes run the
// statements an endpoint runs, recorded from the service, through the same driver (postgres.js, set up by
// drizzle as the services set it up) and pool size, then answer the bytes the service answered.
import { drizzle } from 'drizzle-orm/postgres-js';
import Fastify, { type FastifyRequest } from 'fastify';
import postgres from 'postgres';
import { readInput } from '../sql/inputs.js';
import { replayTemplate } from '../sql/replay.js';
import { baselinePath, readSpecFromArgs } from './spec.js';

const spec = readSpecFromArgs();
if (spec.databaseUrl === undefined) throw new Error('The same-SQL baseline needs databaseUrl');
const sql = postgres(spec.databaseUrl, { max: spec.poolSize ?? 10, onnotice: () => {} });
// drizzle's postgres-js driver installs its own type parsers on the client; do the same.
drizzle({ client: sql });

const app = Fastify({ logger: false });
// A failing replay would make the baseline look slow or fast for the wrong reason: say why, once per cause.
const reported = new Set<string>();
app.setErrorHandler((error, _request, reply) => {
  const message = error instanceof Error ? error.message : String(error);
  if (!reported.has(message)) {
    reported.add(message);
    console.error(`Replay failed: ${message}`);
  }
  return reply.code(500).send({ error: message });
});
app.get('/healthz', async () => ({ ok: true }));

function inputReader(request: FastifyRequest) {
  const parts = {
    headers: request.headers,
    body: request.body,
    params: (request.params ?? {}) as Record<string, string>,
  };
  return (name: string): string | undefined => readInput(parts, name);
}

for (const route of spec.routes) {
  const { template, response } = route;
  if (template === undefined) throw new Error(`Route ${route.id} has no SQL template`);
  app.route({
    method: route.method,
    url: baselinePath(route.id, route.path),
    handler: async (request, reply) => {
      await replayTemplate(sql, template, inputReader(request));
      return reply.code(response.statusCode).header('content-type', response.contentType).send(response.body);
    },
  });
}

await app.listen({ host: '127.0.0.1', port: spec.port });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => sql.end({ timeout: 5 }))
    .then(() => process.exit(0));
});
