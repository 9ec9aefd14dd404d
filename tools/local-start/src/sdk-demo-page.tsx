/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { InlineScript, InlineStyle, renderPage, unescapedLiteral } from '@platform/templates';

// The SDK demo's page (sdk-demo.ts): a customer's web app in one page, which opens the verification with
// @platform/verify-web (loaded from /sdk/) and lists the events it hears. The demo needs JavaScript, the SDK being a
// script; the verification page itself works without it.

const STYLES = unescapedLiteral`
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#f4f5f7}
main{max-width:40rem;margin:0 auto;padding:1rem}
.choices{display:flex;flex-wrap:wrap;gap:.75rem}
button{min-height:2.75rem;padding:.5rem 1rem;font:inherit;font-weight:600;border-radius:6px;border:1px solid #8c959f;background:#fff;color:#1f2328;cursor:pointer}
button:focus-visible{outline:3px solid #0969da;outline-offset:2px}
#verification:not(:empty){height:44rem;margin-top:1rem;background:#fff}
code,li{overflow-wrap:anywhere}
`;

const SCRIPT = unescapedLiteral`
import { startVerification } from '/sdk/index.js';
const events = document.getElementById('events');
const container = document.getElementById('verification');
document.getElementById('returned').hidden = !location.search.includes('returned');
let current;
for (const button of document.querySelectorAll('button[data-mode]')) {
  button.addEventListener('click', async () => {
    current?.close();
    const answer = await fetch('/session', { method: 'POST' });
    if (!answer.ok) return say(await answer.text());
    const { verificationUrl } = await answer.json();
    current = startVerification(verificationUrl, {
      mode: button.dataset.mode,
      container,
      onEvent: (event) => say(JSON.stringify(event)),
    });
    if (current.mode !== button.dataset.mode) say('The popup was blocked: this tab opens the verification.');
  });
}
function say(text) {
  const item = document.createElement('li');
  item.textContent = text;
  events.append(item);
}
`;

export const demoPage = renderPage(
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>Verification SDK demo</title>
      <link rel="icon" href="data:," />
      <InlineStyle css={STYLES} />
    </head>
    <body>
      <main>
        <h1>Verification SDK demo</h1>
        <p>
          This page plays a customer's web app. Its server creates a KYC session of the demo organization, and{' '}
          <code>@platform/verify-web</code> opens it; finish the verification there and watch the events arrive here.
        </p>
        <noscript>
          <p>This demo needs JavaScript: the SDK is a script. The verification page itself works without it.</p>
        </noscript>
        <div class="choices">
          <button type="button" data-mode="popup">
            Verify in a popup
          </button>
          <button type="button" data-mode="embed">
            Verify in this page
          </button>
          <button type="button" data-mode="redirect">
            Verify in this tab
          </button>
        </div>
        <p id="returned" hidden>
          You are back from the verification. Your server would now check the session's status.
        </p>
        <h2>Events</h2>
        <ol id="events" aria-live="polite"></ol>
        <div id="verification"></div>
      </main>
      <InlineScript source={SCRIPT} type="module" />
    </body>
  </html>,
);
