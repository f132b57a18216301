import { appContext } from "~/context";
import { actsCsv, readActFilters } from "~/features/moderation/moderation.server";
import { requireStaff } from "~/routes/staff-guard.server";
import type { Route } from "./+types/_site.admin.moderation.export";

/** The moderation history, as the page's filters have it, as CSV: streamed as it is read. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "moderation");
  const { db } = context.get(appContext);
  const filters = readActFilters(new URL(request.url).searchParams);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(actsCsv(db, { ...filters, before: undefined }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="moderation_${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
