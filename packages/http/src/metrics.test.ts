import { afterEach, describe, expect, it } from 'vitest';
import { type AppServer, type CreateServerOptions, createServer } from './create-server.js';
import { moduleCounter, moduleGauge, moduleHistogram } from './metrics.js';

const service = { name: 'metrics-test', version: '1.0.0', description: 'Service under test' };

const apps: AppServer[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function build(options: Partial<CreateServerOptions> = {}): Promise<AppServer> {
  const app = createServer({ service, logger: false, ...options });
  app.register(async (routes) => {
    routes.get('/v1/items/:id', async (request) => ({ id: (request.params as { id: string }).id }));
  });
  apps.push(app);
  await app.ready();
  return app;
}

async function scrape(app: AppServer, headers: Record<string, string> = {}): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** The value of one sample line, e.g. `http_requests_total{method="GET",...} 3`; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find((candidate) =>
      candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `)
        ? wanted.every((pair) => candidate.includes(pair))
        : false,
    );
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  it('answers Prometheus text with the process metrics and the service counters', async () => {
    const app = await build();
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'http_requests_total',
      'http_request_duration_seconds',
      'rate_limit_rejections_total',
      'idempotent_replays_total',
      'redis_failures_total',
    ]) {
      expect(response.body).toContain(`# TYPE ${name} `);
    }
  });

  it('counts requests by route pattern and status, never by raw URL', async () => {
    const app = await build();
    await app.inject({ method: 'GET', url: '/v1/items/42' });
    await app.inject({ method: 'GET', url: '/v1/items/43' });
    await app.inject({ method: 'GET', url: '/v1/nowhere/abc' });

    const text = await scrape(app);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/v1/items/:id', status_code: '200' })).toBe(2);
    expect(sample(text, 'http_requests_total', { route: 'unmatched', status_code: '404' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/v1/items/:id', status_code: '200' })).toBe(2);
    expect(text).not.toContain('/v1/items/42');
    expect(text).not.toContain('/v1/nowhere');
  });

  it('shows what modules count through app.metrics, separately for each app', async () => {
    const first = await build();
    const second = await build();
    first.metrics.rateLimitRejections.inc();
    first.metrics.idempotentReplays.inc(2);
    first.metrics.redisFailures.inc(3);
    await first.inject({ method: 'GET', url: '/v1/items/1' });

    const text = await scrape(first);
    expect(sample(text, 'rate_limit_rejections_total')).toBe(1);
    expect(sample(text, 'idempotent_replays_total')).toBe(2);
    expect(sample(text, 'redis_failures_total')).toBe(3);

    const other = await scrape(second);
    expect(sample(other, 'rate_limit_rejections_total')).toBe(0);
    expect(sample(other, 'http_requests_total', { route: '/v1/items/:id' })).toBe(0);
  });

  it('is public and left out of the OpenAPI document', async () => {
    const app = await build();
    const openapi = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(openapi.paths)).not.toContain('/metrics');
    expect(app.printRoutes()).toContain('metrics');
  });

  describe('with a metrics token', () => {
    const token = 'scrape-token-0123456789';

    it.each([
      ['no Authorization header', {}],
      ['another token', { authorization: 'Bearer not-the-token' }],
      ['the token without the Bearer scheme', { authorization: token }],
    ])('refuses %s with the 401 envelope', async (_label, headers: Record<string, string>) => {
      const app = await build({ metricsToken: token });
      const response = await app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.json()).toMatchObject({
        success: false,
        code: 'unauthorized',
        requestId: response.headers['x-request-id'],
      });
      expect(response.body).not.toContain('http_requests_total');
    });

    it('answers a scrape that sends the token', async () => {
      const app = await build({ metricsToken: token });
      expect(await scrape(app, { authorization: `Bearer ${token}` })).toContain('http_requests_total');
    });
  });
});

describe('moduleCounter', () => {
  it("adds a module's labelled counter to the app's scrape, once however often it is asked for", async () => {
    const app = await build();
    const first = moduleCounter(app.metrics, { name: 'widgets_total', help: 'Widgets made', labelNames: ['kind'] });
    const again = moduleCounter(app.metrics, { name: 'widgets_total', help: 'Widgets made', labelNames: ['kind'] });
    expect(again).toBe(first);
    first.inc({ kind: 'round' });
    again.inc({ kind: 'round' });
    first.inc({ kind: 'square' });
    const text = await scrape(app);
    expect(sample(text, 'widgets_total', { kind: 'round' })).toBe(2);
    expect(sample(text, 'widgets_total', { kind: 'square' })).toBe(1);
    // Another app's registry does not see it.
    expect(await scrape(await build())).not.toContain('widgets_total');
  });
});

describe('moduleGauge and moduleHistogram', () => {
  it('reads a gauge through its async collect at each scrape, and observes a histogram with its own buckets', async () => {
    const app = await build();
    let depth = 3;
    const gauge = moduleGauge(app.metrics, {
      name: 'queue_depth',
      help: 'Items waiting',
      labelNames: ['kind'],
      async collect() {
        await Promise.resolve();
        this.set({ kind: 'a' }, depth);
      },
    });
    expect(moduleGauge(app.metrics, { name: 'queue_depth', help: 'Items waiting', labelNames: ['kind'] })).toBe(gauge);
    expect(sample(await scrape(app), 'queue_depth', { kind: 'a' })).toBe(3);
    depth = 5;
    expect(sample(await scrape(app), 'queue_depth', { kind: 'a' })).toBe(5);

    const histogram = moduleHistogram(app.metrics, {
      name: 'wait_seconds',
      help: 'Waits',
      labelNames: ['kind'],
      buckets: [1, 60],
    });
    histogram.observe({ kind: 'a' }, 30);
    const text = await scrape(app);
    expect(sample(text, 'wait_seconds_bucket', { kind: 'a', le: '1' })).toBe(0);
    expect(sample(text, 'wait_seconds_bucket', { kind: 'a', le: '60' })).toBe(1);
    expect(sample(text, 'wait_seconds_sum', { kind: 'a' })).toBe(30);
  });
});
