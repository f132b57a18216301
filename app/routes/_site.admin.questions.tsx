import { data, href } from "react-router";
import { z } from "zod";
import { BackLink, ErrorAlert, Notice } from "~/components/ui/alert";
import { appContext } from "~/context";
import { getSiteSettings, setGroupApplicantEdits, setGroupRequiresProof } from "~/features/accounts/site-settings.server";
import { getEvent, setEventApplicantEdits } from "~/features/events/events.server";
import { FormPreview } from "~/features/applications/form-preview";
import { SUBMIT_LABEL } from "~/features/applications/application-form";
import { ApplicantEditsForm, RequireProofForm } from "~/features/questions/form-settings";
import { AddQuestionForm, QuestionList } from "~/features/questions/question-editor";
import { QuestionTranslations } from "~/features/questions/question-translations";
import { m } from "~/paraglide/messages";
import { QUESTION_TYPES_OF, questionInputFromForm } from "~/features/questions/question-input";
import {
  addQuestion,
  deleteQuestion,
  listQuestions,
  QuestionRuleError,
  reorderQuestions,
  saveQuestionTranslation,
  StaleOrderError,
  updateQuestion,
  type QuestionScope,
} from "~/features/questions/questions.server";
import { requireOnEvent } from "~/utils/admin-guard.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { allows } from "~/utils/roles";
import { log } from "~/utils/log.server";
import { copyToFollowing } from "~/flows/event-series.server";
import { UseForFollowing, usedForFollowingText } from "~/features/events/use-for-following";
import type { Route } from "./+types/_site.admin.questions";

const NOT_FOUND = m.event_not_found_admin;

/** The event's questions at /admin/events/:eventId/questions, the group's at /admin/questions. */
async function scopeOf(db: Parameters<typeof getEvent>[0], eventId: string | undefined) {
  if (!eventId) return { scope: { kind: "group" } as QuestionScope, event: null };
  const event = await getEvent(db, eventId);
  if (!event) return null;
  return { scope: { kind: "event", eventId: event.id } as QuestionScope, event };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, params.eventId ? "sanctum" : "group.questions");
  const { db, config } = context.get(appContext);
  // The site's other languages: each question may be given its words in them.
  const languages = config.SITE_LANGUAGES.slice(1);
  const failed = (error: unknown) => {
    log.error("failed to load questions", { error });
    return data({ error: m.qr_load_failed(), event: null, questions: [], requiresProof: false, applicantEdits: true, mayChooseEdits: false, languages }, { status: 503 });
  };
  let found;
  try {
    found = await scopeOf(db, params.eventId);
  } catch (error) {
    return failed(error);
  }
  if (!found) return data({ error: NOT_FOUND(), event: null, questions: [], requiresProof: false, applicantEdits: true, mayChooseEdits: false, languages }, { status: 404 });
  if (found.event) requireOnEvent(viewer, "questions", found.event);
  try {
    const event = found.event ? { title: found.event.title, applicationRequired: found.event.applicationRequired, inSeries: found.event.seriesId !== null } : null;
    // The group's form is set here; an event's, in its editor.
    const settings = found.event ? null : await getSiteSettings(db);
    const requiresProof = found.event ? found.event.requiresProof : settings!.groupRequiresProof;
    const applicantEdits = found.event ? found.event.applicantEdits : settings!.groupApplicantEdits;
    return { error: null, event, questions: await listQuestions(db, found.scope), requiresProof, applicantEdits, mayChooseEdits: allows(viewer.role, "forms.edits"), languages };
  } catch (error) {
    return failed(error);
  }
}

const IdsSchema = z.array(z.uuid()).max(500);

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, params.eventId ? "sanctum" : "group.questions");
  const { db, config } = context.get(appContext);
  const found = await scopeOf(db, params.eventId);
  if (!found) return data({ error: NOT_FOUND() }, { status: 404 });
  if (found.event) requireOnEvent(viewer, "questions", found.event);
  const { scope } = found;
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: m.bansr_form_unreadable() }, { status: 400 });
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");

  if (intent === "add" || intent === "update") {
    const parsed = questionInputFromForm(form);
    if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
    if (!(QUESTION_TYPES_OF[scope.kind] as readonly string[]).includes(parsed.data.questionType)) {
      return data({ error: m.qr_type_not_here() }, { status: 400 });
    }
    try {
      if (intent === "add") await addQuestion(db, scope, parsed.data);
      else if (!(await updateQuestion(db, scope, id, parsed.data))) return data({ error: m.qr_update_failed() }, { status: 404 });
      return { ok: true };
    } catch (error) {
      if (error instanceof QuestionRuleError) return data({ error: error.message }, { status: 400 });
      log.error(`failed to ${intent} a question`, { error });
      return data({ error: intent === "add" ? m.qr_add_failed() : m.qr_update_failed() }, { status: 503 });
    }
  }
  if (intent === "translate") return translate(db, scope, id, form, config.SITE_LANGUAGES.slice(1));
  if (intent === "require-proof") {
    if (found.event) return data({ error: m.unknown_action() }, { status: 400 });
    try {
      await setGroupRequiresProof(db, form.get("requiresProof") === "on", { id: viewer.id, username: viewer.username });
      return { ok: true };
    } catch (error) {
      log.error("failed to change whether group applications need a proven VRChat account", { error });
      return data({ error: m.qr_setting_failed() }, { status: 503 });
    }
  }
  if (intent === "applicant-edits") {
    if (!allows(viewer.role, "forms.edits")) return data({ error: m.bans_owner_only() }, { status: 403 });
    const allowed = form.get("applicantEdits") === "on";
    try {
      if (found.event) await setEventApplicantEdits(db, found.event.id, allowed);
      else await setGroupApplicantEdits(db, allowed, { id: viewer.id, username: viewer.username });
      return { ok: true };
    } catch (error) {
      log.error("failed to change whether applicants may edit their answers", { error });
      return data({ error: m.qr_setting_failed() }, { status: 503 });
    }
  }
  if (intent === "delete") {
    try {
      if (!(await deleteQuestion(db, scope, id))) return data({ error: m.qr_delete_failed() }, { status: 404 });
      return { ok: true };
    } catch (error) {
      if (error instanceof QuestionRuleError) return data({ error: error.message }, { status: 409 });
      log.error("failed to delete a question", { error });
      return data({ error: m.qr_delete_failed() }, { status: 503 });
    }
  }
  if (intent === "use-for-following") {
    if (!found.event) return data({ error: m.unknown_action() }, { status: 400 });
    try {
      const result = await copyToFollowing(db, found.event.id, "questions");
      if (!result) return data({ error: m.dmp_no_repeat() }, { status: 409 });
      return { ok: true, usedForFollowing: usedForFollowingText("questions", result) };
    } catch (error) {
      log.error("failed to copy questions to a series' following events", { error });
      return data({ error: m.qr_not_copied() }, { status: 503 });
    }
  }
  if (intent === "reorder") {
    let ids: unknown;
    try {
      ids = JSON.parse(String(form.get("ids") ?? ""));
    } catch {
      ids = null;
    }
    const parsed = IdsSchema.safeParse(ids);
    if (!parsed.success) return data({ error: m.qr_order_failed() }, { status: 400 });
    try {
      await reorderQuestions(db, scope, parsed.data);
      return { ok: true };
    } catch (error) {
      if (error instanceof QuestionRuleError) return data({ error: error.message }, { status: 409 });
      if (!(error instanceof StaleOrderError)) log.error("failed to reorder questions", { error });
      return data({ error: m.qr_order_failed() }, { status: error instanceof StaleOrderError ? 409 : 503 });
    }
  }
  return data({ error: m.unknown_action() }, { status: 400 });
}

const TranslationSchema = z.object({
  language: z.string(),
  question: z.string().trim().max(500),
  helpText: z.string().trim().max(500),
  statement: z.string().trim().max(5_000),
  options: z.array(z.tuple([z.string(), z.string().trim().max(200)])).max(50),
});

/** 'Save translation': a question's words in one of the site's other languages. */
async function translate(db: Parameters<typeof saveQuestionTranslation>[0], scope: QuestionScope, id: string, form: FormData, languages: readonly string[]) {
  const labels = form.getAll("option").map(String);
  const parsed = TranslationSchema.safeParse({
    language: form.get("language") ?? "",
    question: form.get("question") ?? "",
    helpText: form.get("helpText") ?? "",
    statement: form.get("statement") ?? "",
    options: form.getAll("optionFor").map((value, index) => [String(value), labels[index] ?? ""]),
  });
  if (!parsed.success) return data({ error: m.qt_too_long() }, { status: 400 });
  const { language, options, ...words } = parsed.data;
  if (!languages.includes(language)) return data({ error: m.language_not_offered() }, { status: 400 });
  try {
    const saved = await saveQuestionTranslation(db, scope, id, language, { ...words, options: Object.fromEntries(options) });
    if (!saved) return data({ error: m.qt_missing() }, { status: 404 });
    return { ok: true, message: m.qt_saved() };
  } catch (error) {
    log.error("failed to save a question's translation", { error });
    return data({ error: m.qt_failed() }, { status: 503 });
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.event ? m.qr_title_event() : m.qr_title_group() }];
}

export default function QuestionsPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const { error, event, questions } = loaderData;
  const copied = actionData && "usedForFollowing" in actionData ? actionData.usedForFollowing : null;
  const isEvent = Boolean(params.eventId);
  return (
    <div className="space-y-6">
      {isEvent ? (
        <BackLink to={href("/admin/events")}>{m.apps_back_events()}</BackLink>
      ) : null}
      <div>
        <h1 className="font-display text-4xl text-mist-100">{isEvent ? m.qr_heading_event() : m.qr_heading_group()}</h1>
        <p className="mt-2 text-mist-300">
          {event ? event.title : isEvent ? "" : m.qr_group_intro()}
        </p>
      </div>
      {error ? (
        <ErrorAlert>{error}</ErrorAlert>
      ) : (
        <>
          {event && !event.applicationRequired ? (
            <Notice>{m.qr_no_applications()}</Notice>
          ) : null}
          {event?.inSeries ? <UseForFollowing what="questions" /> : null}
          {copied ? <Notice>{copied}</Notice> : null}
          {isEvent ? null : <RequireProofForm required={loaderData.requiresProof} />}
          <ApplicantEditsForm allowed={loaderData.applicantEdits} mayChoose={loaderData.mayChooseEdits} />
          <FormPreview questions={questions} submitLabel={SUBMIT_LABEL[isEvent ? "event" : "group"]()} />
          <AddQuestionForm types={QUESTION_TYPES_OF[params.eventId ? "event" : "group"]} questions={questions} />
          <QuestionList questions={questions} types={QUESTION_TYPES_OF[params.eventId ? "event" : "group"]} />
          <QuestionTranslations questions={questions} languages={loaderData.languages} />
        </>
      )}
    </div>
  );
}
