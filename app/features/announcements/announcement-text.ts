/**
 * An announcement's text: paragraphs (a blank line between them), line breaks, links, bold and
 * italic, and nothing else. Staff write it once as plain text with a few marks (`**bold**`,
 * `*italic*` or `_italic_`, `[words](https://…)`, a bare https address); each place gets its own form
 * of it: the site a tree it draws as elements (never HTML from the text), Discord its own markdown
 * (everything else escaped, so the text cannot form a mention or other formatting), VRChat plain text
 * (its posts show no formatting), the feed escaped HTML.
 */
import { escapeDiscordMarkdown } from "~/utils/text";

export type Inline =
  | { kind: "text"; text: string }
  | { kind: "break" }
  | { kind: "bold" | "italic"; children: Inline[] }
  | { kind: "link"; href: string; label: string };

export type Paragraph = Inline[];

/** An address a link may go to: http(s) only, so a text cannot make a `javascript:` link. */
const ADDRESS = String.raw`https?:\/\/[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'"]`;
const MARKS = new RegExp(
  [
    String.raw`\*\*(?!\s)([^\n]+?)(?<!\s)\*\*`,
    String.raw`(?<![\w*])\*(?![\s*])([^\n]+?)(?<![\s*])\*(?![\w*])`,
    String.raw`(?<!\w)_(?![\s_])([^\n]+?)(?<![\s_])_(?!\w)`,
    String.raw`\[([^\]\n]+)\]\((${ADDRESS})\)`,
    `(${ADDRESS})`,
    String.raw`\n`,
  ].join("|"),
  "g",
);

function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let at = 0;
  for (const match of source.matchAll(MARKS)) {
    if (match.index > at) out.push({ kind: "text", text: source.slice(at, match.index) });
    const [whole, bold, italicStar, italicLine, label, href, bare] = match;
    if (bold !== undefined) out.push({ kind: "bold", children: parseInline(bold) });
    else if (italicStar !== undefined || italicLine !== undefined) out.push({ kind: "italic", children: parseInline((italicStar ?? italicLine)!) });
    else if (label !== undefined) out.push({ kind: "link", href: href!, label: label.trim() || href! });
    else if (bare !== undefined) out.push({ kind: "link", href: bare, label: bare });
    else out.push({ kind: "break" });
    at = match.index + whole.length;
  }
  if (at < source.length) out.push({ kind: "text", text: source.slice(at) });
  return out;
}

/** The text as paragraphs; blank paragraphs and trailing spaces left out. */
export function parseAnnouncement(source: string): Paragraph[] {
  return source
    .replaceAll("\r\n", "\n")
    .split(/\n[ \t]*\n/)
    .map((block) => block.split("\n").map((line) => line.trimEnd()).join("\n").trim())
    .filter((block) => block.length > 0)
    .map(parseInline);
}

function plainInline(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.kind) {
        case "text":
          return node.text;
        case "break":
          return "\n";
        case "link":
          return node.label === node.href ? node.href : `${node.label} (${node.href})`;
        default:
          return plainInline(node.children);
      }
    })
    .join("");
}

/** Plain text (a VRChat post, a summary): links written out after their words. */
export function toPlainText(source: string): string {
  return parseAnnouncement(source).map(plainInline).join("\n\n");
}

function discordInline(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.kind) {
        case "text":
          return escapeDiscordMarkdown(node.text);
        case "break":
          return "\n";
        case "bold":
          return `**${discordInline(node.children)}**`;
        case "italic":
          return `*${discordInline(node.children)}*`;
        case "link":
          return node.label === node.href ? node.href : `[${escapeDiscordMarkdown(node.label).replaceAll("]", "\\]")}](${node.href})`;
      }
    })
    .join("");
}

/** Discord's markdown: only the marks the text was allowed; anything else in it is shown as written. */
export function toDiscordMarkdown(source: string): string {
  return parseAnnouncement(source).map(discordInline).join("\n\n");
}

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");

function htmlInline(nodes: Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.kind) {
        case "text":
          return escapeHtml(node.text);
        case "break":
          return "<br>";
        case "bold":
          return `<strong>${htmlInline(node.children)}</strong>`;
        case "italic":
          return `<em>${htmlInline(node.children)}</em>`;
        case "link":
          return `<a href="${escapeHtml(node.href)}">${escapeHtml(node.label)}</a>`;
      }
    })
    .join("");
}

/** HTML for the Atom feed: every character of the text escaped, the marks as their elements. */
export function toHtml(source: string): string {
  return parseAnnouncement(source)
    .map((paragraph) => `<p>${htmlInline(paragraph)}</p>`)
    .join("");
}

/** A short plain summary (a list, a link preview): the first words, cut at a word. */
export function summaryOf(source: string, max = 200): string {
  const plain = parseAnnouncement(source)
    .map((paragraph) => plainInline(paragraph.map((node) => (node.kind === "link" ? { kind: "text" as const, text: node.label } : node))))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2)).trimEnd()}…`;
}
