import type { FastifyBaseLogger, FastifyLoggerOptions, FastifyServerOptions } from 'fastify';
import { pino } from 'pino';
import { censorNestedCredentialHeaders, credentialHeaderRedaction, secretSafeSerializers } from './log-serializers.js';
import { loggedUrlOf } from './request-log.js';
import type { SecretUrls } from './secret-urls.js';

type LineFormatter = (line: Record<string, unknown>) => Record<string, unknown>;

// Fastify's own serializers, which it adds to any logger options it is given.
const fastifySerializerKeys = ['req', 'res', 'err'];

/** A line formatter that runs `given` (the logger's own, if any) first, then censors nested credential headers. */
function withNestedHeaderCensor(given: LineFormatter | undefined, serializerKeys: Iterable<string>): LineFormatter {
  const censor = censorNestedCredentialHeaders(new Set([...fastifySerializerKeys, ...serializerKeys]));
  return given === undefined ? censor : (line) => censor(given(line));
}

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
    // pino keeps a logger's serializers and formatters under its exported symbols.
    const own = logger as unknown as Record<symbol, unknown>;
    const ownSerializers = (own[pino.symbols.serializersSym] ?? {}) as Record<string, unknown>;
    const ownFormatters = own[pino.symbols.formattersSym] as { log?: LineFormatter } | undefined;
    const log = withNestedHeaderCensor(ownFormatters?.log, [
      ...Object.keys(ownSerializers),
      ...Object.keys(serializers),
    ]);
    return {
      loggerInstance: logger.child(
        {},
        { serializers, redact: credentialHeaderRedaction, formatters: { log: log as (line: object) => object } },
      ),
    };
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
  const allSerializers = { ...given.serializers, ...serializers };
  const formatters = {
    ...given.formatters,
    log: withNestedHeaderCensor(given.formatters?.log, Object.keys(allSerializers)),
  };
  return { logger: { ...given, redact, serializers: allSerializers, formatters } };
}
