/** A button for each format a thing is exported as, in the order given, disabled while `busy`. */
export function ExportButtons<Format extends string>({
  labels,
  busy,
  onExport,
}: {
  labels: Record<Format, string>;
  busy: boolean;
  onExport: (format: Format) => void;
}) {
  return (
    <>
      {(Object.entries(labels) as [Format, string][]).map(([format, label]) => (
        <button key={format} type="button" disabled={busy} onClick={() => onExport(format)}>
          {label}
        </button>
      ))}
    </>
  );
}
