/**
 * The CSV export (spec section 9): every cell quoted, inner quotes doubled, dates as
 * yyyy-MM-dd HH:mm:ss (UTC). A cell a spreadsheet would run as a formula (starting with =, +, -, @,
 * a tab or a carriage return) gets a leading apostrophe, which spreadsheets show as plain text.
 */
import { m } from "~/paraglide/messages";

/** The fixed columns' headers, in the language of whoever exports (the questions stay as written). */
export const csvFixedColumns = () => [m.csv_vrchat_username(), m.csv_discord_id(), m.csv_status(), m.csv_submitted_at(), m.csv_reviewed_at(), m.csv_notes()];

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

/** The event's title with every non-alphanumeric character replaced by an underscore. */
export function csvFileName(title: string): string {
  return `${title.replace(/[^a-zA-Z0-9]/g, "_")}_applications.csv`;
}
