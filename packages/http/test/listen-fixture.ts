// Started by listen.test.ts in its own process: listens on a free port and waits for a signal.
import { createServer } from '../src/create-server.js';
import { listen } from '../src/listen.js';

const app = createServer({ service: { name: 'listen-fixture', version: '0.0.0', description: 'fixture' } });
app.addHook('onClose', async () => {
  app.log.info('resources released');
});
await listen(app, { host: '127.0.0.1', port: 0 });
