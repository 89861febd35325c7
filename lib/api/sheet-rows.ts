import { SHEET_COLUMNS } from './sheets';

/** A CSV sheet's header, read: its columns by name, or why it cannot be a sheet of profiles. */
export function sheetColumns(cells: readonly string[] | undefined): string[] | { problem: string } {
  const columns = cells?.map((cell) => cell.trim().toLowerCase()) ?? [];
  const unknown = columns.filter((name) => !(SHEET_COLUMNS as readonly string[]).includes(name));
  if (!columns.includes('name') || unknown.length > 0 || new Set(columns).size !== columns.length)
    return {
      problem: `The first line must name the columns, among ${SHEET_COLUMNS.join(',')} (name is needed), each once; it is: ${cells?.join(',').slice(0, 200)}.`,
    };
  return columns;
}

/** A CSV row as the object an import checks: tags split at `;`, a blank proxy none; cells as `undefuse` gives them. */
export function sheetRowJson(
  columns: readonly string[],
  cells: readonly string[],
  undefuse: (cell: string) => string,
): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const [index, name] of columns.entries()) {
    const cell = undefuse(cells[index] as string);
    if (name === 'tags')
      json.tags = cell
        .split(';')
        .map((tag) => tag.trim())
        .filter(Boolean);
    else if (name === 'proxy') json.proxy = cell.trim() === '' ? null : cell;
    else json[name] = cell;
  }
  return json;
}
