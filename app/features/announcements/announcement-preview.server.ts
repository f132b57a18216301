/** What 'Preview' shows: the announcement as each place will get it, built as the workers build it. */
import type { AnnouncementChoice } from "./announcement-input";
import type { AnnouncementPreviewData } from "./announcement-preview";
import { toPlainText } from "./announcement-text";

export function previewOf(
  choice: AnnouncementChoice,
  options: { language: string; defaultLanguage: string; pageUrl: string; vrchatRoleNames: Record<string, string>; mentionName: string | null; picture: boolean },
): AnnouncementPreviewData {
  const site = choice.texts[options.language]?.title ? choice.texts[options.language]! : choice.texts[options.defaultLanguage]!;
  const outside = choice.texts[options.defaultLanguage]!;
  const everyone = choice.audience === "everyone";
  const plain = toPlainText(outside.text);
  return {
    places: choice.places,
    membersOnly: !everyone,
    picture: options.picture,
    site: { title: site.title.trim(), text: site.text },
    vrchat: {
      title: outside.title.trim(),
      text: everyone ? `${plain}\n\n${options.pageUrl}` : plain,
      visibility: everyone ? "public" : "group",
      roles: choice.vrchatRoleIds.map((id) => options.vrchatRoleNames[id] ?? id),
      notify: choice.notifyMembers,
    },
    discord: { mention: options.mentionName, title: outside.title.trim(), text: outside.text, link: everyone ? options.pageUrl : null },
  };
}
