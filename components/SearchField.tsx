/** A search field that filters a list as the person types. */
export function SearchField(props: {
  label: string;
  hint: string;
  value: string;
  onInput(text: string): void;
}) {
  return (
    <input
      type="search"
      aria-label={props.label}
      placeholder={props.hint}
      value={props.value}
      onInput={(event) => props.onInput(event.currentTarget.value)}
    />
  );
}
