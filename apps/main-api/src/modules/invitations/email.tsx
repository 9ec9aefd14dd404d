/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { MembershipRole } from '@platform/db';
import { renderPage, say, text } from '@platform/templates';
import type { MailMessage } from '../../mail/mail-sender.js';
import type { InvitationView } from './schemas.js';

// The invitation email, in English: a text part and the same words as HTML, both from the catalog and the HTML
// through the template layer, so a name an inviter or an organization chose is escaped (docs/decisions.md#html-templates).
// Its link opens the invitation's dashboard page, which signs the invitee in (or up) and accepts with a button
// (docs/decisions.md#dashboard-pages).

interface InvitationEmailContent {
  to: string;
  inviterName: string;
  organizationName: string;
  role: MembershipRole;
  invitation: InvitationView;
  /** The invitation's dashboard page. */
  pageUrl: string;
}

/** When an invitation expires, as the email and the notification say it: `2026-03-09 10:15 UTC`. */
export function formatExpiry(time: Date): string {
  return `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function invitationEmail(content: InvitationEmailContent): MailMessage {
  const { invitation } = content;
  const inviter = content.inviterName;
  const organization = content.organizationName;
  const time = formatExpiry(new Date(invitation.expiresAt));
  return {
    to: content.to,
    subject: text('en', 'invitation.subject', { inviter, organization }),
    text: [
      text('en', 'invitation.greeting'),
      '',
      text('en', 'invitation.invited', { inviter, organization, role: content.role }),
      '',
      text('en', 'invitation.howToAccept', { address: content.to }),
      '',
      `  ${content.pageUrl}`,
      '',
      text('en', 'invitation.signUp'),
      text('en', 'invitation.expires', { time }),
      text('en', 'invitation.unexpected'),
      '',
    ].join('\n'),
    html: renderPage(
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>{text('en', 'invitation.subject', { inviter, organization })}</title>
        </head>
        <body>
          <p>{say('en', 'invitation.greeting')}</p>
          <p>
            {say('en', 'invitation.invited', {
              inviter,
              organization: <strong>{organization}</strong>,
              role: content.role,
            })}
          </p>
          <p>{say('en', 'invitation.howToAccept', { address: content.to })}</p>
          <p>
            <a href={content.pageUrl}>{say('en', 'invitation.accept')}</a>
          </p>
          <p>{say('en', 'invitation.signUp')}</p>
          <p>{say('en', 'invitation.expires', { time })}</p>
          <p>{say('en', 'invitation.unexpected')}</p>
        </body>
      </html>,
    ),
  };
}
