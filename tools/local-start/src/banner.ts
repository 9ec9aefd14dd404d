import { formatKes } from '@platform/pricing';
import { DEMO_WALLET_CREDIT_KES, type LocalCredentials } from './credentials.js';
import {
  allowsPrivateTargets,
  LOCAL_DECISIONS,
  privateTargetsSetting,
  verificationDecisionsSetting,
} from './service-env.js';

export function printBanner(
  c: LocalCredentials,
  credentialsFile: string,
  mode: 'embedded' | 'separate',
  mailOutbox: string,
  fakeSmileIdUrl?: string,
): void {
  const lines = [
    '',
    mode === 'embedded'
      ? 'Both services are running in this process on an embedded database.'
      : 'Each service is running as its own process on DATABASE_URL' +
        (process.env.REDIS_URL ? ' and REDIS_URL.' : '.'),
    '',
    `  dashboard    ${c.dashboardUrl}   sign in or sign up with any email address: the one-time code is in the outbox below`,
    `  main API     ${c.mainUrl}      docs ${c.mainUrl}/docs`,
    `  backend API  ${c.backendUrl}   docs ${c.backendUrl}/docs`,
    `  SDK demo     ${c.sdkDemoUrl}   a page that opens test sessions with @platform/verify-web (popup, embedded, redirect)`,
    '',
    `  demo user          ${c.userId} (owner of the demo organization)`,
    `  bearer token       ${c.token}`,
    `  organization id    ${c.organizationId}`,
    '  its team, one per role (tokens.<role> in the credentials file; tokens.owner is the bearer token above):',
    `    admin            ${c.tokens.admin}`,
    `    developer        ${c.tokens.developer}`,
    `    billing          ${c.tokens.billing}`,
    `    member           ${c.tokens.member}`,
    `    reviewer         ${c.tokens.reviewer}   (reviewerToken: decides live sessions at ${c.mainUrl}/review)`,
    `    finance          ${c.tokens.finance}   (confirms bank transfers: POST ${c.mainUrl}/v1/finance/payments/:reference/confirm)`,
    '  a user with a profile and no organization (newUserToken):',
    `                     ${c.newUserToken}`,
    '  a user with no profile yet, to sign up with POST /v1/accounts (noProfileToken):',
    `                     ${c.noProfileToken}`,
    `  other user         ${c.otherUserId} (organization ${c.otherOrganizationId})`,
    `  other user's token ${c.otherToken}`,
    `  live API key       ${c.liveApiKey}`,
    `  test API key       ${c.testApiKey}`,
    `  webhook secrets    live ${c.webhookSecrets.live}`,
    `                     test ${c.webhookSecrets.test}`,
    '',
    `  identity provider ${c.identityProviderUrl} (local only; the demo users sign in with their addresses, e.g. ${c.userId}'s)`,
    '',
    `Credentials file: ${credentialsFile}`,
    process.env.SMTP_URL
      ? `Emails (invitations) go through SMTP_URL; sign-in codes are written to ${mailOutbox} as .eml files.`
      : `Emails (invitations, sign-in codes) are written to ${mailOutbox} as .eml files (set SMTP_URL to send invitations).`,
    '',
    allowsPrivateTargets()
      ? `Callbacks may go to this machine and other private addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=${privateTargetsSetting()}; set it to false to refuse them, as production does).`
      : `Callbacks go only to public https addresses, as in production (WEBHOOK_ALLOW_PRIVATE_TARGETS=${privateTargetsSetting()}).`,
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer $(node -p "require('${credentialsFile}').token")" ${c.mainUrl}/v1/accounts/me`,
    `  curl -X POST ${c.backendUrl}/v1/verify/sessions -H "x-service-api-key: ${c.testApiKey}" \\`,
    `    -H 'content-type: application/json' -d '{"type":"kyc","externalEndUserId":"${c.userId}"}'`,
    '  then open the verificationUrl it answers in a browser and finish the session with the sandbox buttons.',
    decisionsLine(),
    ...(fakeSmileIdUrl === undefined
      ? []
      : [
          `  A fake Smile ID runs at ${fakeSmileIdUrl} (SMILE_ID_BASE_URL): it verifies every kyc session it is sent`,
          '  and calls back, signed, as Smile ID does; its callbacks are printed here.',
        ]),
    `  The demo wallets got ${formatKes(DEMO_WALLET_CREDIT_KES)} each on the first start: curl -H "x-service-api-key: ${c.testApiKey}" ${c.backendUrl}/v1/wallet`,
    '',
    mode === 'embedded'
      ? 'Data persists in the folder above; start with --fresh (pnpm start -- --fresh) to begin empty. Ctrl-C stops.'
      : 'Data lives in DATABASE_URL (--fresh clears only the local folder above). Ctrl-C stops.',
    '',
  ];
  console.log(lines.join('\n'));
}

/** Who decides verification sessions on this run. */
function decisionsLine(): string {
  const setting = verificationDecisionsSetting();
  return setting === LOCAL_DECISIONS
    ? `  Test sessions are decided with those buttons, live sessions by a reviewer (VERIFICATION_DECISIONS=${setting}).`
    : `  Sessions are decided as VERIFICATION_DECISIONS=${setting} says (sandbox: those buttons; manual: a reviewer; smile_id: Smile ID).`;
}
