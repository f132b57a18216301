/**
 * /news.atom: the public announcements as an Atom feed (RFC 4287), newest first. Members-only ones
 * are never in it. Each entry's content is the text as escaped HTML (only its paragraphs, links,
 * bold and italic).
 */
import { toHtml } from "./announcement-text";
import type { NewsItem } from "./announcements.server";

const escapeXml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

export const ATOM_HEADERS = { "Content-Type": "application/atom+xml; charset=utf-8" };

export function atomOf(items: readonly NewsItem[], options: { origin: string; title: string; language: string; updated: Date }): string {
  const page = `${options.origin}/news`;
  const entries = items.map((item) => {
    const url = `${options.origin}/news/${item.id}`;
    return [
      "  <entry>",
      `    <id>urn:uuid:${item.id}</id>`,
      `    <title>${escapeXml(item.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
      `    <published>${item.publishedAt}</published>`,
      `    <updated>${item.updatedAt > item.publishedAt ? item.updatedAt : item.publishedAt}</updated>`,
      `    <content type="html" xml:lang="${escapeXml(item.language)}">${escapeXml(toHtml(item.text))}</content>`,
      "  </entry>",
    ].join("\n");
  });
  const updated = items.reduce((latest, item) => (item.updatedAt > latest ? item.updatedAt : latest), options.updated.toISOString());
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(options.language)}">`,
    `  <id>${escapeXml(page)}</id>`,
    `  <title>${escapeXml(options.title)}</title>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(page)}"/>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${options.origin}/news.atom`)}"/>`,
    `  <updated>${items.length > 0 ? updated : options.updated.toISOString()}</updated>`,
    `  <author><name>${escapeXml(options.title)}</name></author>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}
