import { z } from "zod";
import { appContext } from "~/context";
import { getAnnouncement, getPicture } from "~/features/announcements/announcements.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { requireAnnouncer } from "./admin-announcements.server";
import type { Route } from "./+types/admin.announcements.$id.picture";

/** An announcement's picture as the staff see it on its card (drafts and members-only ones too). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const { db } = context.get(appContext);
  const id = z.uuid().safeParse(params.id);
  const found = id.success ? await getAnnouncement(db, id.data) : null;
  if (found) await requireAnnouncer(request, context, found.row.eventId);
  else await requireStaff(request, context, "announcements");
  const picture = found?.row.pictureId ? await getPicture(db, found.row.pictureId) : null;
  if (!picture) return new Response("No such picture.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(picture.data), { headers: { "Content-Type": picture.type, "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" } });
}
