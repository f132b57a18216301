/**
 * What a link to a page shows where it is pasted (Discord, chat apps, search results): Open Graph
 * and Twitter card tags, the canonical address, and for an event its schema.org description. Built
 * in loaders, on the server: the pages' own scripts only pass them on, so they do not grow.
 */
import type { MetaDescriptor } from "react-router";
import { m } from "~/paraglide/messages";

export const SITE_NAME = "Dwell";

/** The picture every page shows until it has one of its own: 1200 × 630, as Discord and others want. */
export const PREVIEW_IMAGE = { path: "/og-card.jpg", width: 1200, height: 630 };

export interface Preview {
  /** The page's <title>. */
  title: string;
  /** The title in previews (without the site's name, which og:site_name gives). */
  previewTitle?: string;
  description: string;
  /** The page's path (the origin comes from the request: PUBLIC_URL when set). */
  path: string;
  /** The page's own picture (absolute address; 1200 × 630 unless its size is given), instead of the site's. */
  image?: { url: string; alt: string; width?: number; height?: number };
  /** og:type: "website" unless the page is an article. */
  type?: "website" | "article";
  /** schema.org data (JSON-LD) for the page. */
  structuredData?: Record<string, unknown>;
}

export function previewMeta(origin: string, preview: Preview): MetaDescriptor[] {
  const url = `${origin}${preview.path}`;
  return [
    { title: preview.title },
    { name: "description", content: preview.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: preview.previewTitle ?? preview.title },
    { property: "og:description", content: preview.description },
    { property: "og:url", content: url },
    { property: "og:type", content: preview.type ?? "website" },
    { property: "og:image", content: preview.image?.url ?? `${origin}${PREVIEW_IMAGE.path}` },
    { property: "og:image:width", content: String(preview.image?.width ?? PREVIEW_IMAGE.width) },
    { property: "og:image:height", content: String(preview.image?.height ?? PREVIEW_IMAGE.height) },
    { property: "og:image:alt", content: preview.image?.alt ?? m.preview_image_alt() },
    { name: "twitter:card", content: "summary_large_image" },
    ...(preview.structuredData ? [{ "script:ld+json": preview.structuredData }] : []),
  ];
}

