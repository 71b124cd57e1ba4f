import type { ComponentChildren } from "preact";

export function Card({ title, children, footer }: { title?: ComponentChildren; children: ComponentChildren; footer?: ComponentChildren }) {
  return (
    <section class="card">
      {title ? <h2 class="card-title">{title}</h2> : null}
      <div class="card-body">{children}</div>
      {footer ? <div class="card-footer">{footer}</div> : null}
    </section>
  );
}
