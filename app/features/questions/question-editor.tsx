import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from "@dnd-kit/core";
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { GripVertical, MessageSquareDashed, Pencil, Trash2 } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect, useState } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import type { QuestionType } from "~/db/enums";
import { draftOf, EMPTY_DRAFT, QuestionFields, type EarlierQuestion, type QuestionDraft } from "./question-fields";
import { questionTypeName } from "./question-input";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import type { EditableQuestion } from "./questions.server";

export const DELETE_QUESTION_CONFIRMATION = m.qe_delete_confirm;

interface ActionResult {
  ok?: boolean;
  error?: string;
}

/** Shows an action's failure as a toast, once per answer. */
function useFailureToast(data: ActionResult | undefined) {
  useEffect(() => {
    if (data?.error) toast.error(data.error);
  }, [data]);
}

/** The question types an editor offers (a scope's; see QUESTION_TYPES_OF). */
type Types = readonly QuestionType[];

export function AddQuestionForm({ types, questions }: { types: Types; questions: readonly EarlierQuestion[] }) {
  const fetcher = useFetcher<ActionResult>();
  const [draft, setDraft] = useState<QuestionDraft>(EMPTY_DRAFT);
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (fetcher.data?.ok) setDraft(EMPTY_DRAFT);
  }
  useFailureToast(fetcher.data);
  const empty = draft.question.trim() === "";
  return (
    <Card className="p-6">
      <h2 className="font-display text-2xl text-mist-100">{m.qe_add_new()}</h2>
      <fetcher.Form method="post" className="mt-4 space-y-4" onSubmit={(e) => empty && e.preventDefault()}>
        <input type="hidden" name="intent" value="add" />
        <QuestionFields draft={draft} onChange={setDraft} types={types} earlier={questions} />
        <Button type="submit" disabled={empty || fetcher.state !== "idle"}>
          {m.qe_add()}
        </Button>
      </fetcher.Form>
    </Card>
  );
}

/** How a question's rules read in the list. */
function rulesOf(question: EditableQuestion, questions: readonly EditableQuestion[]): string[] {
  const { settings } = question;
  const lines: string[] = [];
  if (settings.maxLength) lines.push(m.qe_rule_max_chars({ count: formatCount(settings.maxLength) }));
  if (settings.minChoices) lines.push(m.qe_rule_min_chosen({ count: formatCount(settings.minChoices) }));
  if (settings.maxChoices !== undefined) lines.push(m.qe_rule_max_chosen({ count: formatCount(settings.maxChoices) }));
  if (settings.min !== undefined) lines.push(m.qe_rule_from({ value: String(settings.min) }));
  if (settings.max !== undefined) lines.push(m.qe_rule_up_to({ value: String(settings.max) }));
  if (settings.wholeNumber) lines.push(m.qe_rule_whole());
  if (settings.earliest) lines.push(m.qe_rule_from({ value: settings.earliest }));
  if (settings.latest) lines.push(m.qe_rule_until({ value: settings.latest }));
  const target = question.showIf ? questions.find((other) => other.id === question.showIf!.questionId) : undefined;
  if (question.showIf && target) {
    const values = question.showIf.values.map((value) => `"${value}"`).join(m.qe_or());
    const shown = { question: target.question, values };
    lines.push(question.showIf.when === "answered" ? m.qe_shown_answered(shown) : question.showIf.when === "is" ? m.qe_shown_is(shown) : m.qe_shown_is_not(shown));
  }
  return lines;
}

/** The type a question's text made it before types of its own existed (see applicantIdentity). */
function legacyType(question: EditableQuestion): "vrchat_username" | "discord_handle" | null {
  if (question.questionType !== "text") return null;
  const text = question.question.toLowerCase();
  return text.includes("vrchat username") ? "vrchat_username" : text.includes("discord") ? "discord_handle" : null;
}

function QuestionRow({ question, position, types, questions }: { question: EditableQuestion; position: number; types: Types; questions: readonly EditableQuestion[] }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: question.id });
  const [editing, setEditing] = useState<QuestionDraft | null>(null);
  const save = useFetcher<ActionResult>();
  const remove = useFetcher<ActionResult>();
  const [seen, setSeen] = useState(save.data);
  if (save.data !== seen) {
    setSeen(save.data);
    if (save.data?.ok) setEditing(null);
  }
  useFailureToast(save.data);
  useFailureToast(remove.data);

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={isDragging ? "relative z-10 opacity-80" : undefined}
    >
      <Card className="flex gap-3 p-4">
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={m.qe_reorder({ question: question.question, position: formatCount(position) })}
          className="inline-flex size-10 shrink-0 cursor-grab touch-none items-center justify-center rounded-lg text-mist-400 hover:bg-white/5 active:cursor-grabbing"
        >
          <Icon node={GripVertical} className="size-5" />
        </button>
        {editing ? (
          <save.Form method="post" className="flex-1 space-y-4">
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="id" value={question.id} />
            <QuestionFields draft={editing} onChange={setEditing} types={types} earlier={questions.slice(0, position - 1)} />
            <div className="flex gap-2">
              <Button type="submit" size="sm" disabled={editing.question.trim() === "" || save.state !== "idle"}>
                {m.qe_save()}
              </Button>
              <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(null)}>
                {m.qe_cancel()}
              </Button>
            </div>
          </save.Form>
        ) : (
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-mist-100">{question.question}</p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Badge tone="aurora">{questionTypeName(question.questionType)}</Badge>
              {question.required ? <Badge tone="gold">{m.qe_required()}</Badge> : null}
            </div>
            {question.helpText ? <p className="mt-1 text-sm text-mist-400">{question.helpText}</p> : null}
            {question.options?.length ? (
              <ul className="mt-2 flex flex-wrap gap-1 text-xs text-mist-300">
                {question.options.map((option) => (
                  <li key={option} className="rounded border border-aurora-400/20 px-2 py-0.5">{option}</li>
                ))}
              </ul>
            ) : null}
            {question.settings.statement ? <p className="mt-2 line-clamp-3 whitespace-pre-line text-sm text-mist-300">{question.settings.statement}</p> : null}
            {rulesOf(question, questions).length ? (
              <ul className="mt-2 space-y-0.5 text-sm text-aurora-300" data-testid="question-rules">
                {rulesOf(question, questions).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : null}
            {legacyType(question) ? <ConvertOffer question={question} to={legacyType(question)!} /> : null}
          </div>
        )}
        {editing ? null : (
          <div className="flex shrink-0 items-start gap-1">
            <Button
              variant="ghost"
              size="sm"
              aria-label={m.qe_edit_label({ question: question.question })}
              onClick={() => setEditing(draftOf(question))}
            >
              <Icon node={Pencil} className="size-4" />
              {m.qe_edit()}
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="ghost" size="sm" aria-label={m.qe_delete_label({ question: question.question })}>
                  <Icon node={Trash2} className="size-4" />
                  {m.qe_delete()}
                </Button>
              }
              title={m.qe_delete_title()}
              description={DELETE_QUESTION_CONFIRMATION()}
              action={
                <remove.Form method="post">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={question.id} />
                  <Button type="submit" variant="danger">
                    {m.qe_delete()}
                  </Button>
                </remove.Form>
              }
            />
          </div>
        )}
      </Card>
    </li>
  );
}

/**
 * A question made before 'VRChat Username' and 'Discord Handle' were types is read by its text; the
 * editor offers to make it the type it stands for (nothing else about it changes).
 */
function ConvertOffer({ question, to }: { question: EditableQuestion; to: "vrchat_username" | "discord_handle" }) {
  const convert = useFetcher<ActionResult>();
  useFailureToast(convert.data);
  const draft = { ...draftOf(question), questionType: to };
  return (
    <convert.Form method="post" className="mt-2 flex flex-wrap items-center gap-2 text-sm text-mist-300">
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="id" value={question.id} />
      <input type="hidden" name="question" value={draft.question} />
      <input type="hidden" name="questionType" value={to} />
      {draft.required ? <input type="hidden" name="required" value="on" /> : null}
      {draft.helpText ? <input type="hidden" name="helpText" value={draft.helpText} /> : null}
      {draft.maxLength ? <input type="hidden" name="maxLength" value={draft.maxLength} /> : null}
      {draft.showIf ? (
        <>
          <input type="hidden" name="showIfQuestion" value={draft.showIf.questionId} />
          <input type="hidden" name="showIfWhen" value={draft.showIf.when} />
          {draft.showIf.values.map((value) => (
            <input key={value} type="hidden" name="showIfValues" value={value} />
          ))}
        </>
      ) : null}
      <span>{to === "vrchat_username" ? m.qe_read_as_vrchat() : m.qe_read_as_discord()}</span>
      <Button type="submit" size="sm" variant="outline" disabled={convert.state !== "idle"}>
        {m.qe_make_it({ type: questionTypeName(to) })}
      </Button>
    </convert.Form>
  );
}

/**
 * 'Current Questions (n)': drag to reorder with a mouse (after 5 px), a touch (long press of
 * 120 ms) or the keyboard (space to lift, arrows to move, space to drop). The new order is saved
 * at once, all questions in one transaction; if that fails the list goes back to the saved order.
 */
export function QuestionList({ questions, types }: { questions: EditableQuestion[]; types: Types }) {
  const reorder = useFetcher<ActionResult>();
  const revalidator = useRevalidator();
  const [pending, setPending] = useState<string[] | null>(null);
  const [seenQuestions, setSeenQuestions] = useState(questions);
  const [seenReorder, setSeenReorder] = useState(reorder.data);
  if (questions !== seenQuestions) {
    setSeenQuestions(questions);
    setPending(null);
  }
  if (reorder.data !== seenReorder) {
    setSeenReorder(reorder.data);
    if (reorder.data?.error) setPending(null);
  }
  useFailureToast(reorder.data);
  // A failed save shows the order as the database has it now (someone may have changed it).
  useEffect(() => {
    if (reorder.data?.error) void revalidator.revalidate();
    // Only a new answer from the server should trigger this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reorder.data]);

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 120, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const byId = new Map(questions.map((q) => [q.id, q]));
  const shown = pending ? pending.flatMap((id) => byId.get(id) ?? []) : questions;

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const ids = shown.map((q) => q.id);
    const next = arrayMove(ids, ids.indexOf(String(active.id)), ids.indexOf(String(over.id)));
    setPending(next);
    reorder.submit({ intent: "reorder", ids: JSON.stringify(next) }, { method: "post" });
  }

  return (
    <section aria-labelledby="current-questions">
      <h2 id="current-questions" className="mb-4 font-display text-2xl text-mist-100">{m.qe_current({ count: formatCount(questions.length) })}</h2>
      {questions.length === 0 ? (
        <EmptyState icon={<Icon node={MessageSquareDashed} className="size-10" />} title={m.qe_none()} description={m.qe_none_hint()} />
      ) : (
        <DndContext id="question-order" sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={shown.map((q) => q.id)} strategy={verticalListSortingStrategy}>
            <ol className="space-y-3">
              {shown.map((question, index) => (
                <QuestionRow key={question.id} question={question} position={index + 1} types={types} questions={shown} />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}
    </section>
  );
}
