/**
 * A speech bubble drawn in the text's color: shows the same on every system, unlike an emoji, which
 * a machine without an emoji font shows as a box (issue 42). Decorative: the control it sits in
 * carries the accessible name.
 */
export function CommentIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round">
      <path d="M2.5 3.5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v6.5a1 1 0 0 1-1 1H7l-3 2.5v-2.5h-.5a1 1 0 0 1-1-1z" />
    </svg>
  );
}
