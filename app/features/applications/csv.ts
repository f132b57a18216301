/**
 * The CSV export (spec section 9): every cell quoted, inner quotes doubled, dates as
 * yyyy-MM-dd HH:mm:ss (UTC). A cell a spreadsheet would run as a formula (starting with =, +, -, @,
 * a tab or a carriage return) gets a leading apostrophe, which spreadsheets show as plain text.
 */
import { m } from "~/paraglide/messages";

/** The fixed columns' headers, in the language of whoever exports (the questions stay as written). */
export const csvFixedColumns = () => [m.csv_vrchat_username(), m.csv_discord_id(), m.csv_status(), m.csv_submitted_at(), m.csv_reviewed_at(), m.csv_notes()];

export { csvCell, csvDate, csvRow } from "~/utils/csv";

/** The event's title with every non-alphanumeric character replaced by an underscore. */
export function csvFileName(title: string): string {
  return `${title.replace(/[^a-zA-Z0-9]/g, "_")}_applications.csv`;
}
