/** Three bars, drawn in the text's color: the usual sign of a menu. Decorative: its button is named. */
export function MenuIcon() {
  return (
    <svg class="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round">
      <path d="M2.5 4h11M2.5 8h11M2.5 12h11" />
    </svg>
  );
}
