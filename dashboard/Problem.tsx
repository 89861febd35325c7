/** What went wrong with the last try, as a sentence announced to screen readers. */
export function Problem({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p class="problem" role="alert">
      {text}
    </p>
  );
}
