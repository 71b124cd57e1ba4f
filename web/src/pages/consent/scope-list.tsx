import { scopeSentence } from "../../lib/scope-text.ts";

/** The requested scopes as sentences, each with its technical name for those who want it. */
export function ScopeList({ scopes, label, appNames }: { scopes: string[]; label: string; appNames?: Record<string, string> }) {
  return (
    <ul class="scope-list" aria-label={label}>
      {scopes.map((scope) => (
        <li key={scope}>
          <span>{scopeSentence(scope, appNames)}</span> <code class="muted small">{scope}</code>
        </li>
      ))}
    </ul>
  );
}
