// CSV as spreadsheets read it: RFC 4180 quoting, CRLF line ends, and a guard against formula
// injection — a cell a spreadsheet would run as a formula (starting with = + - @, a tab or a
// carriage return) is prefixed with an apostrophe, which makes it plain text (OWASP's advice).

/** UTF-8 byte order mark: Excel reads the file as UTF-8 only with it. */
export const CSV_BOM = "\uFEFF";

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: guarded, then quoted when it holds a comma, a quote, CR or LF (quotes doubled). */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ended by CRLF. */
export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
