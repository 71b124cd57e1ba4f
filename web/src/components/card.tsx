import type { ComponentChildren } from "preact";

type Props = { title?: ComponentChildren; children: ComponentChildren; footer?: ComponentChildren; id?: string; actions?: ComponentChildren };

/** A surface with a heading; `id` makes it a target for in-page links, `actions` sit beside the title. */
export function Card({ title, children, footer, id, actions }: Props) {
  return (
    <section class="card" id={id} aria-labelledby={id && title ? `${id}-title` : undefined}>
      {title || actions ? (
        <div class="card-head">
          {title ? (
            <h2 class="card-title" id={id ? `${id}-title` : undefined}>
              {title}
            </h2>
          ) : null}
          {actions ? <div class="card-actions">{actions}</div> : null}
        </div>
      ) : null}
      <div class="card-body">{children}</div>
      {footer ? <div class="card-footer">{footer}</div> : null}
    </section>
  );
}
