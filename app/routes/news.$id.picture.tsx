import { z } from "zod";
import { appContext } from "~/context";
import { getNewsPicture } from "~/features/announcements/announcements.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/news.$id.picture";

/** /news/{id}/picture: a public announcement's picture (members-only ones and drafts: not found). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const id = z.uuid().safeParse(params.id);
  try {
    const picture = id.success ? await getNewsPicture(db, id.data, { now: new Date() }) : null;
    if (!picture) return new Response("No such picture.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    return new Response(new Uint8Array(picture.data), {
      headers: { "Content-Type": picture.type, "Content-Length": String(picture.data.length), "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" },
    });
  } catch (error) {
    log.error("failed to read an announcement's picture", { error });
    return new Response("The picture could not be read just now.", { status: 503, headers: { "Retry-After": "60" } });
  }
}
