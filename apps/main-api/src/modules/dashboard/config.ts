import { randomBytes } from 'node:crypto';
import { type ConfigProblem, httpUrl } from '@platform/http';
import { type Static, Type } from '@sinclair/typebox';

// The dashboard's variables (docs/decisions.md#dashboard-sign-in): the identity provider customers sign in with,
// and the key that seals the dashboard's cookie. Without DASHBOARD_OIDC_ISSUER the dashboard is off and its routes
// answer a page that says so; the local start always sets it (its own identity provider, tools/local-start).

export const DashboardEnvSchema = Type.Object({
  /** The identity provider's issuer URL; its discovery document is read at the first sign-in. Unset: no dashboard. */
  DASHBOARD_OIDC_ISSUER: Type.Optional(Type.String({ minLength: 1 })),
  /** The dashboard's client id at the identity provider. Required with DASHBOARD_OIDC_ISSUER. */
  DASHBOARD_OIDC_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  /** Its client secret, for a confidential client; unset: a public client (PKCE alone). */
  DASHBOARD_OIDC_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** The scopes asked for; `openid` and `email` at least (the profile needs the address). */
  DASHBOARD_OIDC_SCOPES: Type.String({ minLength: 1, default: 'openid email profile' }),
  /**
   * The API as a resource indicator (RFC 8707), for providers that issue the API's access tokens only when asked for
   * it; unset: none sent.
   */
  DASHBOARD_OIDC_RESOURCE: Type.Optional(Type.String({ minLength: 1 })),
  /** Seals the dashboard's cookie; every instance needs the same one. Required with DATABASE_URL and an issuer. */
  DASHBOARD_SESSION_SECRET: Type.Optional(Type.String({ minLength: 32 })),
});

type DashboardEnv = Static<typeof DashboardEnvSchema>;

export interface DashboardOidcConfig {
  issuer: URL;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  resource?: string;
  /** http is accepted only for an issuer on this machine (the local start). */
  allowHttp: boolean;
}

export interface DashboardConfig {
  /** Unset: the dashboard is off. */
  oidc?: DashboardOidcConfig;
  /** Seals the cookie (through HKDF); random per process when none is needed. */
  sessionSecret: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a URL is plain http on this machine: a local run, where cookies cannot be Secure. */
export const isLocalHttp = (url: string) => {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname);
};

export function dashboardConfigFrom(
  values: DashboardEnv,
  problems: ConfigProblem[],
  { deployed }: { deployed: boolean },
): DashboardConfig | undefined {
  const sessionSecret = values.DASHBOARD_SESSION_SECRET ?? randomBytes(32).toString('base64url');
  if (values.DASHBOARD_OIDC_ISSUER === undefined) return { sessionSecret };
  const issuer = httpUrl('DASHBOARD_OIDC_ISSUER', values.DASHBOARD_OIDC_ISSUER, problems);
  const clientId = values.DASHBOARD_OIDC_CLIENT_ID;
  if (clientId === undefined) {
    problems.push({
      name: 'DASHBOARD_OIDC_CLIENT_ID',
      message: 'DASHBOARD_OIDC_CLIENT_ID is required with DASHBOARD_OIDC_ISSUER',
    });
  }
  if (deployed && values.DASHBOARD_SESSION_SECRET === undefined) {
    problems.push({
      name: 'DASHBOARD_SESSION_SECRET',
      message:
        'DASHBOARD_SESSION_SECRET (at least 32 characters) is required when DATABASE_URL and DASHBOARD_OIDC_ISSUER are set: every instance must open the same cookies',
    });
  }
  if (issuer !== undefined && !issuer.startsWith('https://') && !isLocalHttp(issuer)) {
    problems.push({
      name: 'DASHBOARD_OIDC_ISSUER',
      message: 'DASHBOARD_OIDC_ISSUER must be https (http only on localhost)',
    });
  }
  if (!values.DASHBOARD_OIDC_SCOPES.split(/\s+/).includes('openid')) {
    problems.push({ name: 'DASHBOARD_OIDC_SCOPES', message: 'DASHBOARD_OIDC_SCOPES must include openid' });
  }
  const resource = values.DASHBOARD_OIDC_RESOURCE;
  if (resource !== undefined && !URL.canParse(resource)) {
    problems.push({ name: 'DASHBOARD_OIDC_RESOURCE', message: 'DASHBOARD_OIDC_RESOURCE must be an absolute URI' });
  }
  if (issuer === undefined || clientId === undefined || problems.length > 0) return undefined;
  return {
    sessionSecret,
    oidc: {
      issuer: new URL(values.DASHBOARD_OIDC_ISSUER),
      clientId,
      scopes: values.DASHBOARD_OIDC_SCOPES,
      allowHttp: isLocalHttp(issuer),
      ...(values.DASHBOARD_OIDC_CLIENT_SECRET === undefined
        ? {}
        : { clientSecret: values.DASHBOARD_OIDC_CLIENT_SECRET }),
      ...(resource === undefined ? {} : { resource }),
    },
  };
}
