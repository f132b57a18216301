/** An announcement's text drawn as elements: paragraphs, line breaks, bold, italic and links, nothing else. */
import { Fragment } from "react";
import { parseAnnouncement, type Inline } from "./announcement-text";

function Inlines({ nodes }: { nodes: Inline[] }) {
  return nodes.map((node, i) => {
    switch (node.kind) {
      case "text":
        return <Fragment key={i}>{node.text}</Fragment>;
      case "break":
        return <br key={i} />;
      case "bold":
        return (
          <strong key={i} className="font-semibold text-mist-100">
            <Inlines nodes={node.children} />
          </strong>
        );
      case "italic":
        return (
          <em key={i}>
            <Inlines nodes={node.children} />
          </em>
        );
      case "link":
        return (
          <a key={i} href={node.href} rel="noopener noreferrer nofollow" className="text-aurora-300 underline underline-offset-2 hover:text-aurora-200">
            {node.label}
          </a>
        );
    }
  });
}

export function AnnouncementBody({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className}>
      {parseAnnouncement(text).map((paragraph, i) => (
        <p key={i} className={i > 0 ? "mt-4" : undefined}>
          <Inlines nodes={paragraph} />
        </p>
      ))}
    </div>
  );
}
