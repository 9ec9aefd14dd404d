/** OpenAPI security requirement of routes that need a bearer token (scheme registered in app.ts). */
export const bearerSecurity = [{ bearerAuth: [] }];

/** The scheme itself, named `bearerAuth` in the OpenAPI document. */
export const bearerSecurityScheme = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
} as const;
