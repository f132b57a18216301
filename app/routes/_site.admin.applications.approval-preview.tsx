import { data } from "react-router";
import { z } from "zod";
import { appContext } from "~/context";
import { REVIEW_PAGE_SIZE } from "~/features/applications/review.server";
import type { ApprovalPreviewAnswer } from "~/features/applications/bulk-decisions";
import { decideServices, findReview, previewApproval } from "~/flows/decide.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.admin.applications.approval-preview";
import { m } from "~/paraglide/messages";

const IdsSchema = z.array(z.uuid()).min(1).max(REVIEW_PAGE_SIZE);

/**
 * What approving the selected group applications would do in VRChat, for the bulk bar's
 * confirmation: asked by the decision's own rule, writing nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "group.review");
  const app = context.get(appContext);
  const { db } = app;
  const reply = (answer: ApprovalPreviewAnswer, status = 200) => data(answer, { status, headers: { "Cache-Control": "no-store" } });
  const ids = IdsSchema.safeParse(new URL(request.url).searchParams.getAll("ids"));
  if (!ids.success) return reply({ preview: null, error: m.apps_select_one() }, 400);
  try {
    const review = (await findReview(db, undefined))!;
    return reply({ preview: await previewApproval(decideServices(app), review, ids.data), error: null });
  } catch (error) {
    log.error("failed to preview a bulk approval", { error });
    return reply({ preview: null, error: m.lk_preview_failed() }, 503);
  }
}
