/**
 * Shortening and cleaning texts that leave the site (VRChat's calendar, Discord, Telegram, the log).
 *
 * Lengths are UTF-16 code units (`string.length`): the services count in them or in code points, and
 * code points are never more, so a text within a limit here is within it everywhere. A cut falls only
 * between whole characters (grapheme clusters): half an emoji is an invalid string to a database's
 * JSON and to every service, and half a flag or a family emoji is a different picture.
 */

export const ELLIPSIS = "…";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The longest start of `text` of whole characters within `max` code units. */
export function prefix(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > max) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}

/** `text` within `max` code units, ending in "…" when anything was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return "";
  return prefix(text, max - 1).trimEnd() + ELLIPSIS;
}

// Line breaks, tabs and the other control characters (C0, DEL, C1), and the Unicode line and
// paragraph separators: none belongs in a one-line text such as a title.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** A text that must stay on one line (a title, a calendar's name): controls become one space. */
export function singleLine(text: string): string {
  return text.replace(CONTROL, " ").replace(/ {2,}/g, " ").trim();
}

/** Whether two names are the same person's words for themselves: case and spaces ignored. */
export function sameName(a: string, b: string): boolean {
  const plain = (name: string) => name.replace(/\s+/g, "").toLowerCase();
  return plain(a) !== "" && plain(a) === plain(b);
}

/**
 * Someone else's text as Discord shows it, letter for letter: a backslash before every ASCII
 * punctuation mark keeps it from forming Markdown (a masked link, a bare link's "://", emphasis, a
 * heading, a quote, a list, a mention). Discord shows an escaped character as itself.
 */
export function escapeDiscordMarkdown(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, "\\$&");
}
