/**
 * The docs site's stylesheet: the SPA's palette (light, and dark with the system setting as the
 * SPA follows it), a sidebar layout, admonitions, tables, and highlight.js token colors.
 */
export const DOCS_CSS = `
:root { --bg:#f6f7f9; --surface:#fff; --surface-2:#eef0f3; --text:#1b2430; --muted:#5b6676; --border:#d6dbe2; --accent:#2a64cc;
  --note:#5b6676; --tip:#1a7a4b; --info:#2a64cc; --warning:#955700; --danger:#c23a3a; --code-bg:#f3f5f8;
  --hl-kw:#8b1fa9; --hl-str:#1f7a3d; --hl-num:#b35a00; --hl-com:#5b6676; --hl-fn:#1f5fbf; --hl-type:#9a3412; --primary-text:#fff;
  font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, Ubuntu, sans-serif; color-scheme: light dark; }
@media (prefers-color-scheme: dark) { :root { --bg:#12161c; --surface:#1b2129; --surface-2:#242c36; --text:#e6ebf1; --muted:#9aa5b4;
  --border:#333d4a; --accent:#6ea1ff; --note:#9aa5b4; --tip:#4fd08e; --info:#6ea1ff; --warning:#f3b451; --danger:#ff7b7b; --code-bg:#161b22;
  --hl-kw:#d2a8ff; --hl-str:#a5d6a7; --hl-num:#ffb86b; --hl-com:#8b949e; --hl-fn:#79c0ff; --hl-type:#ffa657; --primary-text:#0b1220; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f0a020; outline-offset: 2px; }
.skip-link { position: absolute; left: -9999px; } .skip-link:focus { left: 1rem; top: .5rem; background: var(--surface); padding: .5rem; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1.25rem; padding: .75rem 1.5rem; background: var(--surface); border-bottom: 1px solid var(--border); }
.top .brand { font-weight: 700; color: var(--text); text-decoration: none; }
.top .home { color: var(--muted); font-size: .9rem; }
.top nav.repos { display: flex; gap: .25rem 1rem; flex-wrap: wrap; }
.top nav.repos a { color: var(--muted); text-decoration: none; padding: .15rem 0; border-bottom: 2px solid transparent; }
.top nav.repos a[aria-current="true"] { color: var(--text); border-bottom-color: var(--accent); }
.top form { margin-left: auto; display: flex; gap: .5rem; }
.top input[type=search] { font: inherit; padding: .35rem .6rem; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--text); min-width: 14rem; }
.top button { font: inherit; padding: .35rem .8rem; border: 1px solid var(--border); border-radius: 6px; background: var(--surface-2); color: var(--text); cursor: pointer; }
.top .locales { display: flex; gap: .5rem; } .top .locales a[aria-current="true"] { font-weight: 700; color: var(--text); text-decoration: none; }
.layout { display: grid; grid-template-columns: 17rem minmax(0, 1fr) 14rem; gap: 2rem; max-width: 90rem; margin: 0 auto; padding: 1.5rem; }
@media (max-width: 70rem) { .layout { grid-template-columns: 15rem minmax(0, 1fr); } .toc { display: none; } }
@media (max-width: 48rem) { .layout { grid-template-columns: minmax(0, 1fr); } }
.sidebar { font-size: .95rem; } .sidebar ul { list-style: none; margin: 0; padding: 0 0 0 .85rem; } .sidebar > ul { padding: 0; }
.sidebar li { margin: .15rem 0; } .sidebar a { color: var(--text); text-decoration: none; display: block; padding: .15rem .5rem; border-radius: 6px; }
.sidebar a:hover { background: var(--surface-2); } .sidebar a[aria-current="page"] { background: var(--surface-2); color: var(--accent); font-weight: 600; }
.sidebar .folder { font-weight: 600; padding: .15rem .5rem; color: var(--muted); }
.sidebar .closed > a::after { content: " \\203A"; color: var(--muted); }
article { min-width: 0; } article h1 { margin-top: 0; font-size: 2rem; line-height: 1.25; }
article h2 { margin-top: 2rem; padding-bottom: .25rem; border-bottom: 1px solid var(--border); }
article .anchor { margin-left: .4rem; color: var(--muted); text-decoration: none; opacity: 0; } article :is(h2,h3,h4):hover .anchor { opacity: 1; }
article pre { background: var(--code-bg); border: 1px solid var(--border); border-radius: 8px; padding: .9rem 1rem; overflow-x: auto; font-size: .9rem; line-height: 1.45; }
article code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
article :not(pre) > code { background: var(--surface-2); padding: .1rem .3rem; border-radius: 4px; }
article table { border-collapse: collapse; display: block; overflow-x: auto; } article th, article td { border: 1px solid var(--border); padding: .4rem .7rem; }
article th { background: var(--surface-2); } article img { max-width: 100%; } article img.diagram { display: block; margin: 1rem auto; background: #fff; border-radius: 6px; padding: .5rem; }
article blockquote { margin: 1rem 0; padding: .25rem 1rem; border-left: 4px solid var(--border); color: var(--muted); }
.admonition { margin: 1rem 0; padding: .75rem 1rem; border-left: 4px solid var(--note); background: var(--surface); border-radius: 6px; border-top: 1px solid var(--border); border-right: 1px solid var(--border); border-bottom: 1px solid var(--border); }
.admonition > :last-child { margin-bottom: 0; } .admonition-title { font-weight: 700; margin: 0 0 .35rem; text-transform: uppercase; font-size: .8rem; letter-spacing: .04em; }
.admonition-tip { border-left-color: var(--tip); } .admonition-info { border-left-color: var(--info); } .admonition-warning, .admonition-caution { border-left-color: var(--warning); } .admonition-danger { border-left-color: var(--danger); }
.meta { color: var(--muted); font-size: .9rem; margin-top: 3rem; border-top: 1px solid var(--border); padding-top: .75rem; }
.notice { background: var(--surface-2); border-radius: 6px; padding: .5rem .75rem; color: var(--muted); }
.toc { font-size: .9rem; position: sticky; top: 1rem; align-self: start; } .toc ul { list-style: none; padding: 0; margin: 0; } .toc li { margin: .25rem 0; }
.toc .d3 { padding-left: .75rem; } .toc .d4 { padding-left: 1.5rem; } .toc a { color: var(--muted); text-decoration: none; } .toc a:hover { color: var(--accent); }
.pager { display: flex; gap: 1rem; margin-top: 2.5rem; }
.pager a { flex: 0 1 48%; border: 1px solid var(--border); border-radius: 8px; padding: .6rem .9rem; text-decoration: none; background: var(--surface); font-weight: 600; overflow-wrap: anywhere; }
.pager a:hover { border-color: var(--accent); } .pager .next { margin-left: auto; text-align: right; }
.pager small { display: block; color: var(--muted); font-weight: 400; }
.empty-state { max-width: 36rem; margin: 4rem auto; padding: 2rem 1.5rem; text-align: center; background: var(--surface); border: 1px solid var(--border); border-radius: 10px; }
.empty-state h1 { margin-top: 0; font-size: 1.6rem; } .empty-state p { color: var(--muted); }
.empty-state .actions { display: flex; flex-wrap: wrap; justify-content: center; gap: .75rem; margin: 1.5rem 0 0; }
.button.primary { display: inline-block; padding: .5rem 1rem; border: 1px solid var(--accent); border-radius: 6px; background: var(--accent); color: var(--primary-text); text-decoration: none; font-weight: 600; }
@media (max-width: 36rem) { .empty-state { margin: 1.5rem 1rem; } }
.results { list-style: none; padding: 0; } .results li { margin: 0 0 1.25rem; } .results a { font-weight: 600; font-size: 1.05rem; }
.results p { margin: .25rem 0 0; color: var(--muted); } mark { background: #ffe58a; color: #1b2430; border-radius: 2px; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-literal { color: var(--hl-kw); } .hljs-string, .hljs-attr, .hljs-template-variable, .hljs-addition { color: var(--hl-str); }
.hljs-number, .hljs-symbol, .hljs-bullet { color: var(--hl-num); } .hljs-comment, .hljs-quote, .hljs-meta { color: var(--hl-com); font-style: italic; }
.hljs-title, .hljs-title.function_, .hljs-section { color: var(--hl-fn); } .hljs-type, .hljs-title.class_, .hljs-variable, .hljs-params { color: var(--hl-type); } .hljs-deletion { color: var(--danger); }
`;
