/**
 * CSV as the Sanctum's exports write it: every cell quoted, inner quotes doubled, dates as
 * yyyy-MM-dd HH:mm:ss (UTC). A cell a spreadsheet would run as a formula (starting with =, +, -, @,
 * a tab or a carriage return) gets a leading apostrophe, which spreadsheets show as plain text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | null | undefined): string {
  const text = value ?? "";
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function csvRow(cells: (string | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

export function csvDate(value: Date | string | null | undefined): string {
  if (!value) return "";
  const date = typeof value === "string" ? new Date(value) : value;
  return date.toISOString().slice(0, 19).replace("T", " ");
}
