import type { LocalCredentials } from './credentials.js';

export function printBanner(c: LocalCredentials, credentialsFile: string): void {
  const lines = [
    '',
    'Both services are running on an embedded database.',
    '',
    `  main API     ${c.mainUrl}      docs ${c.mainUrl}/docs`,
    `  backend API  ${c.backendUrl}   docs ${c.backendUrl}/docs`,
    '',
    `  demo user          ${c.userId}`,
    `  bearer token       ${c.token}`,
    `  organization id    ${c.organizationId}`,
    `  other user         ${c.otherUserId} (organization ${c.otherOrganizationId})`,
    `  other user's token ${c.otherToken}`,
    `  live API key       ${c.liveApiKey}`,
    `  test API key       ${c.testApiKey}`,
    '',
    `Credentials file: ${credentialsFile}`,
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer $(node -p "require('${credentialsFile}').token")" ${c.mainUrl}/v1/accounts/me`,
    '',
    'Data persists in the folder above; start with --fresh (pnpm start -- --fresh) to begin empty. Ctrl-C stops.',
    '',
  ];
  console.log(lines.join('\n'));
}
