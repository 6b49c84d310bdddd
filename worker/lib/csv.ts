import Papa from "papaparse";

/** Byte order mark: spreadsheet programs read the file as UTF-8 only with it. */
const BOM = "\uFEFF";

export type CsvCell = string | number | boolean | null | undefined;
export type CsvRow = readonly CsvCell[];

/** Rows as CSV lines, each ending in CRLF. */
function csvLines(rows: readonly CsvRow[]): string {
  const data = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? "" : cell)));
  // Cells starting with = + - @ are quoted and prefixed so spreadsheets do not run them as formulas.
  return `${Papa.unparse(data, { newline: "\r\n", escapeFormulae: true })}\r\n`;
}

/** The headers of a CSV download with a filename. */
export const csvHeaders = (filename: string): Record<string, string> => ({
  "Content-Type": "text/csv; charset=utf-8",
  "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
});

/** A small CSV document whole (a mail attachment), its last line without a line end; downloads use csvStream. */
export const toCsv = (header: readonly string[], rows: readonly CsvRow[]): string =>
  BOM + csvLines([header, ...rows]).slice(0, -2);

/**
 * A CSV document (UTF-8 with BOM, CRLF line ends) written as it is read: the BOM and header
 * first, then one chunk per page of rows. Pages are pulled only when the reader wants more, so
 * an export holds one page in memory whatever its length.
 */
export function csvStream(
  header: readonly string[],
  pages: AsyncIterable<readonly CsvRow[]> | Iterable<readonly CsvRow[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator =
    Symbol.asyncIterator in pages ? pages[Symbol.asyncIterator]() : toAsync(pages[Symbol.iterator]());
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(BOM + csvLines([header])));
      },
      async pull(controller) {
        // An empty page writes nothing; read on until a page has rows or the pages end.
        for (;;) {
          const next = await iterator.next();
          if (next.done) {
            controller.close();
            return;
          }
          if (next.value.length > 0) {
            controller.enqueue(encoder.encode(csvLines(next.value)));
            return;
          }
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}

function toAsync<T>(iterator: Iterator<T>): AsyncIterator<T> {
  return {
    next: async () => iterator.next(),
    return: async () => iterator.return?.() ?? { done: true, value: undefined },
  };
}

/** An array in pages of at most `size` items: a list already in memory, written in bounded chunks. */
export function* chunksOf<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
/** An ISO 8601 time with its numeric UTC offset in the given IANA zone, e.g. 2026-06-01T14:00:00+02:00. */
export function isoWithOffset(value: string | number | null, timeZone = "UTC"): string {
  if (value === null) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMin = Math.round((local - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  const ms = date.getTime() % 1000;
  const fraction = ms === 0 ? "" : `.${String((ms + 1000) % 1000).padStart(3, "0")}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${fraction}${offset}`;
}
