import { Type } from '@sinclair/typebox';

// The dashboard's query strings. Its pages answer HTML; forms are read in the handlers (shared/html-forms.ts).

const lang = Type.Optional(
  Type.String({ maxLength: 8, description: 'The page language to switch to: `en` or `sw` (kept in the cookie).' }),
);

const org = Type.Optional(
  Type.String({ maxLength: 64, description: 'The organization to show (its id; kept in the cookie).' }),
);
const env = Type.Optional(
  Type.String({ maxLength: 8, description: 'The data to show: `test` or `live` (kept in the cookie).' }),
);

export const PageQuery = Type.Object({ lang, org, env });

export const HomeQuery = Type.Object({
  lang,
  org,
  env,
  notice: Type.Optional(
    Type.String({ maxLength: 16, description: 'A notice to show once: `created`, `joined` (an organization).' }),
  ),
});

export const LoginQuery = Type.Object({
  lang,
  notice: Type.Optional(Type.String({ maxLength: 32, description: 'A notice to show once: `signed_out`, `expired`.' })),
});

/** What the identity provider sends back: checked by openid-client, not here. */
export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 1024 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
    error_description: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: true },
);

/** A redirect without a body: the page is at its Location. */
export const SeeOther = { 303: Type.Null({ description: 'See the page at the Location header.' }) };

/** Documentation of every dashboard route: HTML, signed in by the session cookie. */
export function documented(summary: string) {
  return {
    tags: ['dashboard'],
    summary,
    description:
      "Server-rendered page of the customers' dashboard, signed in through the identity provider (OpenID Connect, " +
      'code flow with PKCE) with an HttpOnly session cookie; every form with a CSRF token ' +
      '(docs/decisions.md#dashboard-sign-in).',
    security: [],
  };
}
