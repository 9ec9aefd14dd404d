/** Route config shared by the services. */
export type PlatformRouteConfig = {
  /** The route needs no credentials; the services' authentication hooks skip it. */
  public?: boolean;
};

declare module 'fastify' {
  interface FastifyContextConfig extends PlatformRouteConfig {}
}
