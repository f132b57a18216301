import { data } from "react-router";
import { z } from "zod";
import { ErrorAlert } from "~/components/ui/alert";
import { appContext } from "~/context";
import { getEvent } from "~/features/events/events.server";
import { draftIsEmpty, ruleInputFromForm } from "~/features/screening/rule-form";
import { addScreeningRule, tryScreeningRules } from "~/flows/screen-applications.server";
import { deleteRule, listRuleChoices, listRules, moveRule } from "~/features/screening/screening-rules.server";
import { AddRuleForm, RuleList } from "~/features/screening/screening-page";
import type { ChoiceQuestion } from "~/features/screening/rule-form";
import { requireStaff } from "~/routes/staff-guard.server";
import { log } from "~/utils/log.server";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import type { Route } from "./+types/_site.admin.screening";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "screening");
  const { db, config } = context.get(appContext);
  const empty = { error: null as string | null, rules: [] as Awaited<ReturnType<typeof listRules>>, events: [] as { id: string; title: string }[], questions: [] as ChoiceQuestion[], autoApprovalsPerHour: config.SCREENING_AUTO_APPROVALS_PER_HOUR };
  try {
    const [rules, choices] = await Promise.all([listRules(db), listRuleChoices(db)]);
    return { ...empty, rules, ...choices };
  } catch (error) {
    log.error("failed to load the screening rules", { error });
    return data({ ...empty, error: m.scrr_load_failed() }, { status: 503 });
  }
}

const MoveSchema = z.object({ id: z.uuid(), direction: z.enum(["up", "down"]) });

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "screening");
  const { db, vrchat } = context.get(appContext);
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: m.bansr_form_unreadable() }, { status: 400 });
  const intent = form.get("intent");
  try {
    if (intent === "add") {
      const parsed = ruleInputFromForm(form);
      if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
      if (parsed.data.scope.kind === "event" && !(await getEvent(db, parsed.data.scope.eventId))) return data({ error: m.event_not_found_admin() }, { status: 404 });
      const added = await addScreeningRule(db, vrchat.membership, parsed.data, viewer.id);
      if (!added.ok) return data({ error: added.error }, { status: added.status });
      return { ok: true as const, message: m.scrr_added({ name: parsed.data.name }) };
    }
    if (intent === "try") {
      // 'Try these rules': the saved rules, with the rule being written after them when there is one.
      const parsed = draftIsEmpty(form) ? null : ruleInputFromForm(form);
      if (parsed && !parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
      return { trial: await tryScreeningRules(db, parsed?.data ?? null, new Date()) };
    }
    if (intent === "delete") {
      const id = z.uuid().safeParse(form.get("id"));
      if (!id.success || !(await deleteRule(db, id.data))) return data({ error: m.scrr_gone() }, { status: 404 });
      return { ok: true as const, message: m.scrr_deleted() };
    }
    if (intent === "move") {
      const move = MoveSchema.safeParse({ id: form.get("id"), direction: form.get("direction") });
      if (!move.success) return data({ error: m.scrr_gone() }, { status: 400 });
      if (!(await moveRule(db, move.data.id, move.data.direction))) return data({ error: m.scrr_cannot_move() }, { status: 409 });
      return { ok: true as const, message: null };
    }
  } catch (error) {
    log.error("failed to change the screening rules", { error });
    return data({ error: m.scrr_failed() }, { status: 503 });
  }
  return data({ error: m.unknown_action() }, { status: 400 });
}

export function meta() {
  return [{ title: m.scrr_title() }];
}

export default function ScreeningPage({ loaderData, actionData }: Route.ComponentProps) {
  const { error, rules, events, questions, autoApprovalsPerHour } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="font-display text-4xl text-mist-100">{m.scrr_heading()}</h1>
        <p className="mt-2 max-w-2xl text-mist-300">
          {m.scrr_intro({ count: formatCount(autoApprovalsPerHour) })}
        </p>
        <p className="mt-2 max-w-2xl text-sm text-ember-200" data-testid="who-rules-approve">
          {m.scrr_who_approved()}
        </p>
      </div>
      {error ? <ErrorAlert>{error}</ErrorAlert> : <RuleList rules={rules} events={events} />}
      <AddRuleForm events={events} questions={questions} failure={actionData && "error" in actionData ? actionData.error : null} />
    </div>
  );
}
