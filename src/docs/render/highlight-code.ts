import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import graphql from "highlight.js/lib/languages/graphql";
import http from "highlight.js/lib/languages/http";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import nginx from "highlight.js/lib/languages/nginx";
import php from "highlight.js/lib/languages/php";
import plaintext from "highlight.js/lib/languages/plaintext";
import powershell from "highlight.js/lib/languages/powershell";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import scss from "highlight.js/lib/languages/scss";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

// The core plus the languages documentation mostly shows, not all 190: each grammar costs memory at startup.
// Their aliases come along (ts, tsx, js, jsx, sh, zsh, yml, html, svg, toml, py, rs, console, md, ...).
const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  graphql,
  http,
  ini,
  java,
  javascript,
  json,
  kotlin,
  makefile,
  markdown,
  nginx,
  php,
  plaintext,
  powershell,
  python,
  ruby,
  rust,
  scss,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

// Everything hljs emits: escaped text and spans whose class is hljs scopes (`hljs-title function_`) or an
// embedded language (`language-xml`). A class without quotes cannot leave its attribute.
const HIGHLIGHT_MARKUP = /^(?:[^<]+|<span class="[\w -]+">|<\/span>)*$/;

/**
 * The inner HTML of a code block: hljs class spans for a registered language (or alias), else the escaped
 * text. It is safe to place in a page without sanitizing: the output is checked to be only text and spans.
 * Never auto-detects: a guess costs a pass per grammar and is often wrong for short snippets.
 */
export function highlightCode(code: string, language: string): string {
  if (!language || !hljs.getLanguage(language)) return escapeHtml(code);
  const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  return HIGHLIGHT_MARKUP.test(html) ? html : escapeHtml(code);
}
