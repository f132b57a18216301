/** 'Preview': the announcement as the site, a VRChat post and a Discord message will show it, before anything is sent. */
import { Card } from "~/components/ui/card";
import type { AnnouncementPlace } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { AnnouncementBody } from "./announcement-body";
import { placeName } from "./announcement-editor";

export interface AnnouncementPreviewData {
  places: AnnouncementPlace[];
  membersOnly: boolean;
  site: { title: string; text: string };
  vrchat: { title: string; text: string; visibility: "public" | "group"; roles: string[]; notify: boolean };
  discord: { mention: string | null; title: string; text: string; link: string | null };
  picture: boolean;
}

export function AnnouncementPreview({ preview }: { preview: AnnouncementPreviewData }) {
  return (
    <section aria-labelledby="preview-heading" className="space-y-4">
      <h2 id="preview-heading" className="font-display text-2xl text-mist-100">
        {m.ann_preview_heading()}
      </h2>
      {preview.picture ? <p className="text-sm text-mist-400">{m.ann_preview_picture()}</p> : null}
      <div className="grid gap-4 lg:grid-cols-3">
        {preview.places.includes("site") ? (
          <Card className="p-5">
            <p className="text-xs font-semibold tracking-widest text-aurora-300 uppercase">{placeName("site")}</p>
            <h3 className="mt-2 font-display text-xl text-mist-100">{preview.site.title}</h3>
            <AnnouncementBody text={preview.site.text} className="mt-3 text-sm text-mist-300" />
            {preview.membersOnly ? <p className="mt-3 text-xs text-ember-300">{m.ann_preview_site_members()}</p> : null}
          </Card>
        ) : null}
        {preview.places.includes("vrchat") ? (
          <Card className="p-5">
            <p className="text-xs font-semibold tracking-widest text-aurora-300 uppercase">{m.ann_preview_vrchat()}</p>
            <div className="mt-2 rounded-lg bg-[#181b1f] p-4 text-[#e6e6e6]">
              <h3 className="font-semibold">{preview.vrchat.title}</h3>
              <p className="mt-2 text-sm whitespace-pre-wrap">{preview.vrchat.text}</p>
            </div>
            <p className="mt-3 text-xs text-mist-400">
              {preview.vrchat.visibility === "public" ? m.ann_preview_vrchat_public() : m.ann_preview_vrchat_group()}
              {preview.vrchat.roles.length > 0 ? ` ${m.ann_preview_vrchat_roles({ roles: preview.vrchat.roles.join(", ") })}` : ""}
              {` ${preview.vrchat.notify ? m.ann_preview_notify() : m.ann_preview_no_notify()}`}
            </p>
          </Card>
        ) : null}
        {preview.places.includes("discord") ? (
          <Card className="p-5">
            <p className="text-xs font-semibold tracking-widest text-aurora-300 uppercase">{m.ann_preview_discord()}</p>
            <div className="mt-2 rounded-lg bg-[#313338] p-4 text-[#dbdee1]">
              {preview.discord.mention ? <p className="mb-2 text-sm"><span className="rounded bg-[#5865f2]/30 px-1 text-[#c9cdfb]">@{preview.discord.mention}</span></p> : null}
              <div className="border-l-4 border-[#f5b042] pl-3">
                <h3 className="font-semibold text-[#00a8fc]">{preview.discord.title}</h3>
                <AnnouncementBody text={preview.discord.text} className="mt-2 text-sm" />
              </div>
            </div>
            <p className="mt-3 text-xs text-mist-400">{preview.discord.mention ? m.ann_preview_mentions({ role: preview.discord.mention }) : m.ann_preview_no_mention()}</p>
          </Card>
        ) : null}
      </div>
    </section>
  );
}
