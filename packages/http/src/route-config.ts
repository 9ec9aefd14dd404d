/** Route config shared by the services. */
export type PlatformRouteConfig = {
  /** The route needs no credentials; the services' authentication hooks skip it. */
  public?: boolean;
  /**
   * The route's URL carries a secret (a callback token in the path, say): log lines name the route pattern
   * (`/callbacks/:token`), never the URL as requested nor its query string; unmatched requests whose path looks
   * like this route's, and error messages quoting such a URL, get the pattern too.
   */
  urlCarriesSecret?: boolean;
  /**
   * The route takes a payment provider's messages (a webhook, a result callback). Text PostgreSQL cannot store is
   * not refused there, as it is everywhere else: the handler makes it storable (`toStorableText`), so that an
   * authentic result is recorded rather than bounced back to a provider that would retry it for days.
   */
  sentByProvider?: boolean;
};

declare module 'fastify' {
  interface FastifyContextConfig extends PlatformRouteConfig {}
}
