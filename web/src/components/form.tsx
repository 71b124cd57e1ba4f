import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

type Props = { onSubmit: () => void; id?: string; class?: string; children: ComponentChildren };

/**
 * Brings the first refused control into view and focus (a control marked aria-invalid, or the
 * first control of a group marked field-invalid); else shows the form's own error. True when
 * there was something to show.
 */
function showFirstProblem(form: HTMLFormElement): boolean {
  const control =
    form.querySelector<HTMLElement>('[aria-invalid="true"]') ??
    form.querySelector<HTMLElement>(".field-invalid input, .field-invalid select, .field-invalid textarea");
  const target = control ?? form.querySelector<HTMLElement>(".form-error");
  if (!target) return false;
  target.scrollIntoView({ block: "center" });
  control?.focus({ preventScroll: true });
  return true;
}

/**
 * A form that validates in our code, not the browser's, and submits through `onSubmit` (Enter
 * works). After a submit, a refusal (found at once, or answered later by the server) brings its
 * field into view and focus, rather than leaving focus on the button with the error off-screen.
 * Typing again stands the watch down.
 */
export function Form({ onSubmit, children, ...rest }: Props) {
  const ref = useRef<HTMLFormElement>(null);
  const watching = useRef(false);
  useEffect(() => {
    const form = ref.current;
    if (!form) return;
    const observer = new MutationObserver(() => {
      if (watching.current && showFirstProblem(form)) watching.current = false;
    });
    observer.observe(form, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-invalid", "class"] });
    const standDown = () => (watching.current = false);
    form.addEventListener("input", standDown);
    return () => {
      observer.disconnect();
      form.removeEventListener("input", standDown);
    };
  }, []);
  return (
    <form
      {...rest}
      ref={ref}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        watching.current = true;
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
