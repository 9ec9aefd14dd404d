import { unescapedLiteral } from '@platform/templates';

// The hosted page's one style sheet, inline (the CSP allows inline styles and nothing else to load).
// Colours meet WCAG AA contrast on their backgrounds; focus is always visible.
export const PAGE_STYLES = unescapedLiteral`
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:#f4f5f7;color:#1f2328;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:38rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.6rem;margin:.25rem 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.requester{margin:0;color:#57606a}
.badge{display:inline-block;margin:0 0 .5rem;padding:.1rem .6rem;border:1px solid #9a6700;border-radius:999px;color:#7d4e00;background:#fff8c5;font-size:.875rem}
.status{display:inline-block;margin:0;padding:.25rem .75rem;border-radius:6px;font-weight:600;border:1px solid #d0d7de}
.status-verified{background:#dafbe1;color:#116329;border-color:#4ac26b}
.status-rejected,.status-expired,.status-canceled{background:#ffebe9;color:#a40e26;border-color:#ff8182}
.status-processing,.status-pending,.status-requires_input{background:#ddf4ff;color:#0a3069;border-color:#54aeff}
.reason,.changed{padding:.5rem .75rem;background:#fff8c5;border-left:4px solid #9a6700}
.notice{padding:.5rem .75rem;border-radius:6px;background:#dafbe1;color:#116329}
.notice-problem{background:#ffebe9;color:#a40e26}
.sandbox{margin-top:1.5rem;padding:1rem;border:2px dashed #8c959f;border-radius:8px}
.sandbox h2{margin-top:0}
form{margin:.75rem 0}
label{display:block;margin-bottom:.25rem;font-weight:600}
input[type=text],input[type=date]{display:block;width:100%;margin-bottom:.5rem;padding:.5rem;font:inherit;border:1px solid #8c959f;border-radius:6px}
button{padding:.5rem 1.25rem;font:inherit;font-weight:600;border-radius:6px;border:1px solid transparent;cursor:pointer}
button.primary{background:#1f6feb;color:#fff}
button.danger{background:#cf222e;color:#fff}
button.secondary{background:#f6f8fa;color:#1f2328;border-color:#8c959f}
a:focus-visible,button:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.small{font-size:.875rem;color:#57606a}
a{color:#0969da}
.languages{display:flex;justify-content:flex-end;gap:1rem;margin:0 0 .5rem;font-size:.875rem}
.languages [aria-current]{font-weight:600}
a.target{display:inline-block;padding:.25rem 0}
.choices{display:flex;flex-wrap:wrap;gap:.75rem}
button{min-height:2.75rem}
fieldset{margin:0 0 1rem;padding:.75rem 1rem;border:1px solid #d0d7de;border-radius:6px;min-width:0}
legend{padding:0 .25rem;font-weight:600}
.field{margin-bottom:1rem}
select,input[type=file]{display:block;width:100%;max-width:100%;padding:.5rem;font:inherit;border:1px solid #8c959f;border-radius:6px;background:#fff;color:#1f2328}
select{min-height:2.75rem}
select:focus-visible{outline:3px solid #0969da;outline-offset:2px}
[aria-invalid=true]{border:2px solid #a40e26}
input[type=date]{min-height:2.75rem;background:#fff;color:#1f2328}
textarea.mrz{display:block;width:100%;padding:.5rem;border:1px solid #8c959f;border-radius:6px;font:.875rem/1.5 ui-monospace,"Cascadia Mono","Roboto Mono",Menlo,Consolas,monospace;white-space:pre;overflow-x:auto;resize:vertical}
pre.mrz{margin:0;font:.875rem/1.5 ui-monospace,"Cascadia Mono","Roboto Mono",Menlo,Consolas,monospace;white-space:pre-wrap;overflow-wrap:anywhere}
.capture:has(#field-idType option[value=national_id]:checked,#field-idType option[value=alien_id]:checked) .passport-only{display:none}
.hint{margin:0 0 .25rem;font-size:.875rem;color:#57606a}
fieldset>.hint{margin-bottom:.75rem}
.field-error{margin:0 0 .25rem;font-weight:600;color:#a40e26}
.error-summary{margin:0 0 1rem;padding:.75rem 1rem;border:3px solid #a40e26;border-radius:6px}
.error-summary h3{margin:0 0 .5rem;font-size:1rem;color:#a40e26}
.error-summary ul{margin:0;padding-left:1.25rem}
.error-summary a{color:#a40e26;font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
a.button{display:inline-block;padding:.6rem 1.25rem;border-radius:6px;font-weight:600;text-decoration:none;min-height:2.75rem}
a.button.primary{background:#1f6feb;color:#fff}
input[type=url]{display:block;width:100%;margin-bottom:.5rem;padding:.5rem;font:inherit;border:1px solid #8c959f;border-radius:6px;background:#f6f8fa}
.directors li{margin-bottom:1rem}
.director-send{display:flex;flex-wrap:wrap;gap:1rem}
.director-send a{display:inline-block;padding:.5rem 0;min-height:2.75rem}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
@media (max-width:40rem){main{margin:0;border:0;border-radius:0;padding:1rem}}
`;
