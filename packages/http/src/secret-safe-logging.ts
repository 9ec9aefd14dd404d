import type { FastifyBaseLogger, FastifyLoggerOptions, FastifyServerOptions } from 'fastify';
import { credentialHeaderRedaction, secretSafeSerializers } from './log-serializers.js';
import { loggedUrlOf } from './request-log.js';
import type { SecretUrls } from './secret-urls.js';

/** What createServer's `logger` option takes: Fastify logger options, `false`, or a ready pino logger. */
type GivenLogger = FastifyServerOptions['logger'] | FastifyBaseLogger;

function isLoggerInstance(logger: GivenLogger): logger is FastifyBaseLogger {
  return (
    typeof logger === 'object' &&
    logger !== null &&
    typeof (logger as FastifyBaseLogger).child === 'function' &&
    typeof (logger as FastifyBaseLogger).info === 'function'
  );
}

/**
 * Fastify's logging options for createServer's `logger`, with secrets kept out: serializers for `req` and `err`
 * (secretSafeSerializers) and the redaction of credential headers. Logger options get them added; a given
 * logger is wrapped in a child that has them.
 */
export function secretSafeLogging(logger: GivenLogger, secretUrls: SecretUrls): FastifyServerOptions {
  // Fastify types its serializers' results more narrowly than pino, which takes any value.
  const serializers = secretSafeSerializers(secretUrls, (request) => loggedUrlOf(request, secretUrls)) as NonNullable<
    FastifyLoggerOptions['serializers']
  >;
  if (isLoggerInstance(logger)) {
    return { loggerInstance: logger.child({}, { serializers, redact: credentialHeaderRedaction }) };
  }
  if (logger === false) return { logger: false };
  const given: Exclude<FastifyServerOptions['logger'], boolean | undefined> =
    typeof logger === 'object' && logger !== null ? logger : {};
  const { paths } = credentialHeaderRedaction;
  const redact =
    given.redact === undefined
      ? credentialHeaderRedaction
      : Array.isArray(given.redact)
        ? { ...credentialHeaderRedaction, paths: [...paths, ...given.redact] }
        : { ...given.redact, paths: [...paths, ...given.redact.paths] };
  return { logger: { ...given, redact, serializers: { ...given.serializers, ...serializers } } };
}
