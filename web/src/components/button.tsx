import type { ButtonHTMLAttributes, ComponentChildren } from "preact";

type Props = ButtonHTMLAttributes & {
  variant?: "primary" | "secondary" | "danger" | "ghost";
  busy?: boolean;
  children: ComponentChildren;
};

export function Button({ variant = "primary", busy = false, disabled, children, type = "button", ...rest }: Props) {
  return (
    <button {...rest} type={type} class={`btn btn-${variant}`} disabled={disabled || busy} aria-busy={busy}>
      {busy ? <span class="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
