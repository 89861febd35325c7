/** The first row a query answers, or null when it answers none. */
export async function firstRow<Row>(rows: Promise<Row[]>): Promise<Row | null> {
  const [row] = await rows;
  return row ?? null;
}
