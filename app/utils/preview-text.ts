import type { MetaDescriptor } from "react-router";

/**
 * The root's preview tags (built by its loader for this page's address) with a page's own title and
 * description in place of the site's: for pages whose text depends on what their loader found.
 */
export function withOwnText(rootMeta: unknown, title: string, description: string): MetaDescriptor[] {
  const base = Array.isArray(rootMeta) ? (rootMeta as MetaDescriptor[]) : [];
  const own: MetaDescriptor[] = [
    { title: `${title} · Dwell` },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
  ];
  const replaced = new Set(["title", "description", "og:title", "og:description"]);
  const keep = base.filter((tag) => {
    const key = "title" in tag ? "title" : String((tag as { name?: string; property?: string }).name ?? (tag as { property?: string }).property ?? "");
    return !replaced.has(key);
  });
  return [...own, ...keep];
}
