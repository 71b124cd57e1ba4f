import type { ComponentChildren } from "preact";
import { Button } from "./button.tsx";
import { Card } from "./card.tsx";
import { Form } from "./form.tsx";

type Props = { id?: string; title: ComponentChildren; submitLabel: string; busy: boolean; onSubmit: () => void; children: ComponentChildren };

/** A card that is a form: its footer holds the submit button; Enter in a field submits. */
export function FormCard({ id, title, submitLabel, busy, onSubmit, children }: Props) {
  return (
    <Form onSubmit={() => onSubmit()}>
      <Card
        id={id}
        title={title}
        footer={
          <Button type="submit" busy={busy}>
            {submitLabel}
          </Button>
        }
      >
        {children}
      </Card>
    </Form>
  );
}
