/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { type Child, HtmlPage, type Locale, renderPage, say, text, unescapedLiteral } from '@platform/templates';

// The local identity provider's pages: server-rendered, no script, labelled fields, errors announced.

const STYLES = unescapedLiteral`
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#fff}
main{max-width:28rem;margin:0 auto;padding:1rem}
.tag{font-size:.875rem;color:#57606a;margin:0}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{display:block;width:100%;font:inherit;min-height:2.75rem;padding:.5rem;border:1px solid #6e7781;border-radius:6px}
button{font:inherit;min-height:2.75rem;padding:.5rem 1rem;border:1px solid #1a7f37;border-radius:6px;background:#1a7f37;color:#fff;margin-top:1rem;cursor:pointer}
button.secondary{background:#fff;color:#1f2328;border-color:#6e7781;margin-left:.5rem}
a{color:#0550ae}
a:focus,button:focus,input:focus{outline:3px solid #0969da;outline-offset:2px}
.alert{padding:.5rem .75rem;border-radius:6px;background:#ffebe9;color:#82071e}
`;

function frame(title: string, body: Child, locale: Locale = 'en') {
  return renderPage(
    <HtmlPage title={`${title} · ${text(locale, 'localIdp.title')}`} styles={STYLES} lang={locale}>
      <p class="tag">{say(locale, 'localIdp.title')}</p>
      {body}
    </HtmlPage>,
  );
}

const Alert = ({ message }: { message: string | undefined }) =>
  message === undefined ? null : (
    <p class="alert" role="alert">
      {message}
    </p>
  );

export function emailPage(uid: string, error?: string) {
  return frame(
    text('en', 'localIdp.email.heading'),
    <>
      <h1>{say('en', 'localIdp.email.heading')}</h1>
      <Alert message={error} />
      <p>{say('en', 'localIdp.email.intro')}</p>
      <form method="post" action={`/interaction/${uid}/email`}>
        <label for="email">{say('en', 'localIdp.email.label')}</label>
        <input id="email" name="email" type="email" autocomplete="email" required />
        <button type="submit">{say('en', 'localIdp.email.submit')}</button>
      </form>
    </>,
  );
}

export function codePage(input: { uid: string; email: string; newAccount: boolean; error?: string | undefined }) {
  return frame(
    text('en', 'localIdp.code.heading'),
    <>
      <h1>{say('en', 'localIdp.code.heading')}</h1>
      <Alert message={input.error} />
      <p>{say('en', 'localIdp.code.intro', { email: <strong>{input.email}</strong> })}</p>
      <form method="post" action={`/interaction/${input.uid}/code`}>
        <label for="code">{say('en', 'localIdp.code.label')}</label>
        <input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" autocomplete="one-time-code" required />
        {input.newAccount ? (
          <>
            <p>{say('en', 'localIdp.code.newAccount')}</p>
            <label for="givenName">{say('en', 'localIdp.code.firstName')}</label>
            <input id="givenName" name="givenName" autocomplete="given-name" required />
            <label for="familyName">{say('en', 'localIdp.code.lastName')}</label>
            <input id="familyName" name="familyName" autocomplete="family-name" required />
          </>
        ) : null}
        <button type="submit">{say('en', 'localIdp.code.submit')}</button>
      </form>
      <p>
        <a href={`/interaction/${input.uid}`}>{say('en', 'localIdp.code.again')}</a>
      </p>
    </>,
  );
}

export function expiredPage() {
  return frame(text('en', 'localIdp.title'), <p role="alert">{say('en', 'localIdp.expired')}</p>);
}

/**
 * The confirmation of a sign-out the dashboard asked for (RP-initiated logout): oidc-provider's form (its action and
 * one-time `xsrf`), posted by a button, so it works without script. "Sign out" sends `logout=yes`; staying signed in
 * posts without it, and the provider sends the browser back to the dashboard either way.
 */
export function signOutPage(input: { locale: Locale; action: string; xsrf: string }) {
  const { locale } = input;
  return frame(
    text(locale, 'localIdp.signOut.heading'),
    <>
      <h1>{say(locale, 'localIdp.signOut.heading')}</h1>
      <p>{say(locale, 'localIdp.signOut.intro')}</p>
      <form method="post" action={input.action}>
        <input type="hidden" name="xsrf" value={input.xsrf} />
        <button type="submit" name="logout" value="yes">
          {say(locale, 'localIdp.signOut.submit')}
        </button>
        <button type="submit" class="secondary">
          {say(locale, 'localIdp.signOut.stay')}
        </button>
      </form>
    </>,
    locale,
  );
}

/** After a sign-out that named no page to go back to. */
export function signedOutPage(locale: Locale) {
  return frame(text(locale, 'localIdp.title'), <p role="status">{say(locale, 'localIdp.signedOut')}</p>, locale);
}
