/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { SessionLocale, VerificationStatus } from '@platform/db';
import { say, text } from '@platform/templates';

// The business's page lists its directors and gives each their own verification link (docs/decisions.md#directors):
// to copy, or to send by email or SMS from the person's own phone, in the page's language. No script: the link sits
// in a read-only field to select, and mailto:/sms: links carry the message.

export interface DirectorLink {
  /** The registry's name, or null when it gave none (the director is then numbered). */
  name: string | null;
  /** The director's hosted page. */
  url: string;
  status: VerificationStatus;
}

export function DirectorsSection(props: {
  locale: SessionLocale;
  company: string | null;
  directors: readonly DirectorLink[];
}) {
  const { locale, directors } = props;
  if (directors.length === 0) return null;
  const company = props.company ?? text(locale, 'verify.directors.companyFallback');
  return (
    <section aria-labelledby="directors-heading" id="directors">
      <h2 id="directors-heading">{say(locale, 'verify.directors.heading')}</h2>
      <p>{say(locale, 'verify.directors.intro')}</p>
      <ol class="directors">
        {directors.map((director, index) => {
          const name = director.name ?? text(locale, 'verify.directors.unnamed', { number: String(index + 1) });
          const message = text(locale, 'verify.directors.message', { company, url: director.url });
          const subject = text(locale, 'verify.directors.emailSubject', { company });
          const fieldId = `director-link-${index + 1}`;
          const to = text(locale, 'verify.directors.sendTo', { name });
          return (
            <li>
              <p>
                <strong>{name}</strong>: {say(locale, `verificationStatus.${director.status}`)}
              </p>
              {director.status === 'pending' || director.status === 'requires_input' ? (
                <>
                  <label for={fieldId}>{say(locale, 'verify.directors.linkLabel', { name })}</label>
                  <input type="url" id={fieldId} value={director.url} readonly autocomplete="off" />
                  <p class="director-send">
                    <a href={`mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(message)}`}>
                      {say(locale, 'verify.directors.sendEmail')}
                      <span class="visually-hidden"> {to}</span>
                    </a>{' '}
                    <a href={`sms:?&body=${encodeURIComponent(message)}`}>
                      {say(locale, 'verify.directors.sendSms')}
                      <span class="visually-hidden"> {to}</span>
                    </a>
                  </p>
                </>
              ) : null}
            </li>
          );
        })}
      </ol>
      {directors.some((director) => director.status === 'pending') ? (
        <p class="small">{say(locale, 'verify.directors.reload')}</p>
      ) : null}
    </section>
  );
}
