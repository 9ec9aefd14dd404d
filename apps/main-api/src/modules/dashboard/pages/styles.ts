import { unescapedLiteral } from '@platform/templates';

// The dashboard's one style sheet, inline (its CSP allows inline styles and nothing else). Mobile first: one column
// at 360 px, the navigation wrapping under the header; colours meet WCAG AA on white.
export const DASHBOARD_STYLES = unescapedLiteral`
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
.skip{position:absolute;left:-100vw;top:0;background:#fff;padding:.5rem 1rem}
.skip:focus{left:.5rem;top:.5rem;z-index:1}
.site{border-bottom:1px solid #d0d7de;background:#f6f8fa}
.bar{max-width:64rem;margin:0 auto;padding:.5rem 1rem;display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem}
.brand{font-weight:700;font-size:1.1rem;margin:0}
.brand a{color:#1f2328;text-decoration:none}
.who{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;margin:0}
.user{overflow-wrap:anywhere}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav a{display:inline-block;padding:.5rem 0;min-height:2.75rem}
nav a[aria-current=page]{font-weight:700;color:#1f2328}
.langs{display:flex;gap:.75rem;margin:0;padding:0;list-style:none}
.langs a{display:inline-block;padding:.5rem 0;min-height:2.75rem}
a{color:#0550ae}
a:focus,button:focus,input:focus{outline:3px solid #0969da;outline-offset:2px}
main{max-width:64rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.cards{list-style:none;padding:0;margin:0;display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr))}
.card{border:1px solid #d0d7de;border-radius:6px;padding:.75rem}
.card h3{margin:0 0 .25rem;font-size:1rem;overflow-wrap:anywhere}
.card p{margin:0}
button{font:inherit;min-height:2.75rem;padding:.5rem 1rem;border:1px solid #6e7781;border-radius:6px;background:#f6f8fa;color:#1f2328;cursor:pointer}
button.primary{background:#1a7f37;border-color:#1a7f37;color:#fff}
button.link{background:none;border:none;color:#0550ae;text-decoration:underline;padding:.5rem 0}
form.inline{margin:0}
.message{padding:.5rem .75rem;border-radius:6px}
.message.status{background:#dafbe1;color:#0f5323}
.message.alert{background:#ffebe9;color:#82071e}
`;
