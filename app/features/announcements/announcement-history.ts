/** An announcement's history, in the reader's language: the words the server kept are codes. */
import { m } from "~/paraglide/messages";
import { dateFormat } from "~/utils/language";

export function historyText(change: string, timeZone: string): string {
  const [word, detail = ""] = change.split(" ", 2);
  switch (word) {
    case "published":
      return m.ann_history_published();
    case "draft":
      return m.ann_history_draft();
    case "edited":
      return m.ann_history_edited();
    case "deleted":
      return m.ann_history_deleted();
    case "scheduled":
      return m.ann_history_scheduled({ when: Number.isNaN(Date.parse(detail)) ? detail : dateFormat({ dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(detail)) });
    case "retried":
      return m.ann_history_retried({ place: detail === "vrchat" ? m.ann_place_vrchat() : m.ann_place_discord() });
    default:
      return change;
  }
}
