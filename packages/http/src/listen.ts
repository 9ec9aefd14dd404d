import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

export type ListenOptions = {
  host: string;
  port: number;
  /** Longest a graceful shutdown may take before the process exits anyway (default 10 s). */
  shutdownDelayMs?: number;
};

/**
 * Starts listening and closes the server gracefully on SIGINT/SIGTERM (in-flight requests finish,
 * onClose hooks release resources), exiting if that takes longer than the delay.
 */
export async function listen(app: FastifyInstance, options: ListenOptions): Promise<void> {
  let shutdown: ReturnType<typeof closeWithGrace> | undefined;
  // A server closed by other means must not keep the process-wide signal handlers.
  app.addHook('onClose', async () => shutdown?.uninstall());

  const address = await app.listen({ host: options.host, port: options.port });
  app.log.info({ address }, `listening on ${address}`);

  shutdown = closeWithGrace({ delay: options.shutdownDelayMs ?? 10_000, logger: app.log }, async ({ signal, err }) => {
    if (err !== undefined) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    app.log.info('shutdown complete');
  });
}
