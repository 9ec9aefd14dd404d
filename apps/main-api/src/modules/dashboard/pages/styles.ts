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
a:focus,button:focus,input:focus,textarea:focus,.table:focus{outline:3px solid #0969da;outline-offset:2px}
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
.org{border-top:1px solid #d0d7de}
.switcher{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:0}
.orgname{margin:0;overflow-wrap:anywhere}
select,textarea,input[type=text],input[type=date],input[type=search],input[type=tel],input[type=email],input[type=number],input[type=url]{font:inherit;min-height:2.75rem;padding:.4rem .5rem;border:1px solid #6e7781;border-radius:6px;background:#fff;color:#1f2328;max-width:100%}
select:focus{outline:3px solid #0969da;outline-offset:2px}
.toggle{display:flex;gap:.25rem;margin:0;padding:0;list-style:none}
.toggle a{display:inline-block;padding:.5rem .75rem;min-height:2.75rem;border:1px solid #6e7781;border-radius:6px;text-decoration:none}
.toggle a[aria-current=true]{background:#0550ae;border-color:#0550ae;color:#fff;font-weight:700}
.testdata{margin:0;padding:.5rem 1rem;background:#fff8c5;color:#3b2300;text-align:center;border-bottom:1px solid #d4a72c}
.filters{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));align-items:end;margin:0 0 1rem}
.filters label{display:block;font-weight:600}
.filters .hint{display:block;font-size:.875rem;color:#57606a}
.filters .actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.table{width:100%;overflow-x:auto}
table{border-collapse:collapse;width:100%;min-width:36rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #d0d7de;vertical-align:top}
td.num,th.num{text-align:right}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.875rem;overflow-wrap:anywhere}
.pager{display:flex;gap:1rem;margin:1rem 0}
dl.facts{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere;white-space:pre-line}
ol.timeline{padding-left:1.25rem}
ol.timeline li{margin:.25rem 0}
form.stack{max-width:36rem;margin:1rem 0}
.field{margin:0 0 1rem}
.field label{display:block;font-weight:600}
.field .hint{display:block;font-size:.875rem;color:#57606a}
.field .error{display:block;color:#82071e;font-weight:600}
.field input,.field textarea{width:100%}
[aria-invalid=true]{border-color:#cf222e;border-width:2px}
textarea:focus{outline:3px solid #0969da;outline-offset:2px}
.message{padding:.5rem .75rem;border-radius:6px}
.message.status{background:#dafbe1;color:#0f5323}
.message.alert{background:#ffebe9;color:#82071e}
form.fields{display:grid;gap:1rem;max-width:36rem;margin:0 0 1rem}
.field{display:flex;flex-direction:column;gap:.25rem}
.field label{font-weight:600}
.field input,.field textarea{width:100%}
.field .problem{font-size:.875rem;color:#82071e;font-weight:600}
.field [aria-invalid=true]{border-color:#cf222e;border-width:2px}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
ul.attention{list-style:none;padding:0;margin:0 0 1rem;display:grid;gap:.5rem}
ul.attention li{border-left:4px solid #bf8700;background:#fff8c5;border-radius:0 6px 6px 0;padding:0 .75rem}
ul.attention a{display:block;padding:.6rem 0;min-height:2.75rem;overflow-wrap:anywhere}
@media (max-width:30rem){dl.facts{grid-template-columns:1fr;gap:0}dl.facts dd{margin-bottom:.5rem}}
.card.low{border-color:#cf222e;border-left-width:4px}
.card .amount{font-size:1.25rem;font-weight:700}
.subnav{margin:0 0 .5rem;border-bottom:1px solid #d0d7de}
form.stack{display:flex;flex-direction:column;gap:.25rem;max-width:36rem;margin:1rem 0}
form.stack label{font-weight:600}
.secret{border:2px solid #1a7f37;border-radius:6px;padding:.75rem;margin:0 0 1rem;background:#f6fff8}
.secret h2{margin-top:0}
.secret textarea{display:block;width:100%;padding:.4rem .5rem;border:1px solid #6e7781;border-radius:6px;background:#fff;color:#1f2328;resize:none;word-break:break-all}
form.stack p{margin:0}
.table.wide table{min-width:56rem}
td.nowrap{white-space:nowrap}
ul.rows{list-style:none;padding:0;margin:0 0 1rem}
ul.rows li{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem;padding:.5rem 0;border-bottom:1px solid #d0d7de}
td.excerpt{max-width:20rem}
pre.body{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.75rem;overflow-x:auto;font-size:.875rem;white-space:pre-wrap;overflow-wrap:anywhere}
.hint{display:block;font-size:.875rem;color:#57606a}
.controls{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin-top:.5rem}
.controls p{margin:0}
form.row{display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center;margin:0}
form.row label{flex-basis:100%;font-weight:600}
.inbox{grid-template-columns:1fr}
.card.unread{border-color:#0550ae;border-width:2px}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.badge{display:inline-block;padding:0 .4rem;border-radius:1rem;background:#0550ae;color:#fff;font-size:.8rem;font-weight:600;vertical-align:middle}
table.fit{min-width:0}
@media (max-width:40rem){table.fit thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}table.fit tr{display:block;padding:.5rem 0;border-bottom:1px solid #d0d7de}table.fit td{display:block;padding:.1rem 0;border:0}}
.filters.top{align-items:start}
.filters.top .actions{align-self:end}
.card .address{overflow-wrap:anywhere;color:#57606a}
.card dl.facts{margin:.25rem 0;grid-template-columns:minmax(5rem,max-content) 1fr}
td .what{display:block;font-weight:600}
td .mono{display:block}
.tabs{list-style:none;margin:0 0 .5rem;padding:0;display:flex;flex-wrap:wrap;gap:.25rem .5rem;border-bottom:1px solid #d0d7de}
.tabs a{display:inline-block;padding:.5rem .25rem;min-height:2.75rem}
.tabs a[aria-current=page]{font-weight:700;color:#1f2328;border-bottom:3px solid #0550ae}
form.stack{display:grid;gap:.75rem;max-width:32rem;margin:0 0 1rem}
form.row{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end;margin:0 0 1rem}
.field label{display:block;font-weight:600}
.field .hint{display:block;font-size:.875rem;color:#57606a}
fieldset{border:1px solid #d0d7de;border-radius:6px;padding:.5rem .75rem;margin:0}
legend{font-weight:600;padding:0 .25rem}
label.choice{display:flex;align-items:center;gap:.5rem;min-height:2.75rem}
input[type=radio]{width:1.25rem;height:1.25rem;margin:0}
input[type=tel],input[type=number]{font:inherit;min-height:2.75rem;padding:.4rem .5rem;border:1px solid #6e7781;border-radius:6px;background:#fff;color:#1f2328;max-width:100%}
@media (max-width:40rem){
dl.facts.stackable{grid-template-columns:1fr;gap:0}
dl.facts.stackable dd{margin:0 0 .5rem}
.stacked table{min-width:0}
.stacked thead tr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.stacked tr{display:block;border-bottom:1px solid #d0d7de;padding:.5rem 0}
.stacked td{display:flex;justify-content:space-between;gap:1rem;border:0;padding:.25rem 0;text-align:right}
.stacked td::before{content:attr(data-label);font:600 1rem/1.5 system-ui,sans-serif;white-space:nowrap;text-align:left}
}
`;
