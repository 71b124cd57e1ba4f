/** The error of a whole form (not of one field), announced to screen readers; nothing when there is none. */
export function FormError({ message }: { message: string | null | undefined }) {
  return message ? (
    <p class="form-error" role="alert">
      {message}
    </p>
  ) : null;
}
