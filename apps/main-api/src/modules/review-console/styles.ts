import { unescapedLiteral } from '@platform/templates';

// The review console's one style sheet, inline (its CSP allows inline styles and nothing else).
// Colours meet WCAG AA on white (the darkest text #1f2328, links #0550ae, alerts #82071e on #ffebe9, a check needing
// attention #7d4e00).
export const CONSOLE_STYLES = unescapedLiteral`
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
main{max-width:64rem;margin:0 auto;padding:1rem}
header{display:flex;justify-content:space-between;align-items:center;flex-wrap:wrap;gap:.5rem;border-bottom:1px solid #d0d7de;margin-bottom:1rem}
.brand{font-weight:700;margin:.5rem 0}
a{color:#0550ae}
a:focus,button:focus,input:focus,textarea:focus{outline:3px solid #0969da;outline-offset:2px}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.card h2{margin:0 0 .5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1rem}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
code{font-size:.9em;overflow-wrap:anywhere}
.tabs{display:flex;gap:1rem;margin:0 0 .5rem}
.tabs a[aria-current=page]{font-weight:700;color:#1f2328;text-decoration:none}
h3{font-size:1rem;margin:0 0 .5rem}
table{border-collapse:collapse;width:100%;margin:0 0 1rem}
th,td{text-align:left;vertical-align:top;padding:.25rem .5rem;border-bottom:1px solid #d0d7de;overflow-wrap:anywhere}
.table-scroll{overflow-x:auto;margin:0 0 1rem}
.table-scroll table{margin:0}
.table-scroll th,.table-scroll td,.table-scroll code{overflow-wrap:normal}
.table-scroll td:nth-child(3){min-width:12rem}
.table-scroll:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.evidence{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1rem}
.outcome.failed{color:#82071e;font-weight:600}
.outcome.attention{color:#7d4e00;font-weight:600}
.queue{list-style:none;padding:0;margin:0;display:grid;gap:.75rem}
.card{border:1px solid #d0d7de;border-radius:6px;padding:.75rem}
.documents{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
.document{margin:0;border:1px solid #d0d7de;border-radius:6px;padding:.5rem}
.document img{display:block;width:100%;height:auto}
figcaption{margin-top:.25rem;font-weight:600}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
.choices{list-style:none;padding:0;margin:0}
.choices li{display:flex;align-items:center;gap:.5rem;min-height:2rem}
.choices label{display:inline;margin:0;font-weight:400}
input[type=radio],input[type=checkbox]{width:1.25rem;height:1.25rem;margin:0}
fieldset{border:1px solid #d0d7de;border-radius:6px;margin:1rem 0;padding:.5rem .75rem}
legend{font-weight:600;padding:0 .25rem}
textarea{display:block;width:100%;font:inherit;padding:.5rem;border:1px solid #6e7781;border-radius:6px}
button{font:inherit;min-height:2.75rem;padding:.5rem 1rem;border:1px solid #6e7781;border-radius:6px;background:#f6f8fa;color:#1f2328;cursor:pointer;margin-top:.75rem}
button.primary{background:#1a7f37;border-color:#1a7f37;color:#fff}
button.link{background:none;border:none;color:#0550ae;text-decoration:underline;padding:.5rem 0;margin:0}
.inline{margin:0}
.message{padding:.5rem .75rem;border-radius:6px}
.message.status{background:#dafbe1;color:#0f5323}
.message.alert{background:#ffebe9;color:#82071e}
`;
