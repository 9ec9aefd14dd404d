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
};

declare module 'fastify' {
  interface FastifyContextConfig extends PlatformRouteConfig {}
}
