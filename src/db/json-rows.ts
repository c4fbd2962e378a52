// Rows sent to D1 as JSON text, one bound parameter per chunk, read back in SQL with json_each:
// one set-based statement writes or looks up thousands of rows, where one statement per row
// would cost the Worker, the wire and D1 thousands of statements.

/**
 * D1 binds a string of at most 2,000,000 bytes. A chunk stays under 600,000 UTF-16 code units,
 * so its UTF-8 form fits even when every character takes three bytes.
 */
const CHUNK_UNITS = 600_000;

/** `items` as JSON arrays of `toRow(item)`, each chunk small enough to bind as one parameter. */
export function jsonChunks<T>(items: Iterable<T>, toRow: (item: T) => unknown): string[] {
  const chunks: string[] = [];
  let rows: string[] = [];
  let units = 2;
  for (const item of items) {
    const row = JSON.stringify(toRow(item));
    if (rows.length > 0 && units + row.length + 1 > CHUNK_UNITS) {
      chunks.push(`[${rows.join(",")}]`);
      rows = [];
      units = 2;
    }
    rows.push(row);
    units += row.length + 1;
  }
  if (rows.length > 0) chunks.push(`[${rows.join(",")}]`);
  return chunks;
}
