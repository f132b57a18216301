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
import { GripVertical, MessageSquareDashed, Pencil, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import type { QuestionType } from "~/db/enums";
import { EMPTY_DRAFT, QuestionFields, type QuestionDraft } from "./question-fields";
import { QUESTION_TYPE_LABELS } from "./question-input";
import type { EditableQuestion } from "./questions.server";

export const DELETE_QUESTION_CONFIRMATION = "Are you sure you want to delete this question? This action cannot be undone.";

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

export function AddQuestionForm({ types }: { types: Types }) {
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
      <h2 className="font-display text-2xl text-mist-100">Add New Question</h2>
      <fetcher.Form method="post" className="mt-4 space-y-4" onSubmit={(e) => empty && e.preventDefault()}>
        <input type="hidden" name="intent" value="add" />
        <QuestionFields draft={draft} onChange={setDraft} types={types} />
        <Button type="submit" disabled={empty || fetcher.state !== "idle"}>Add Question</Button>
      </fetcher.Form>
    </Card>
  );
}

function QuestionRow({ question, position, types }: { question: EditableQuestion; position: number; types: Types }) {
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
          aria-label={`Reorder: ${question.question} (position ${position})`}
          className="inline-flex size-10 shrink-0 cursor-grab touch-none items-center justify-center rounded-lg text-mist-400 hover:bg-white/5 active:cursor-grabbing"
        >
          <GripVertical aria-hidden="true" className="size-5" />
        </button>
        {editing ? (
          <save.Form method="post" className="flex-1 space-y-4">
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="id" value={question.id} />
            <QuestionFields draft={editing} onChange={setEditing} types={types} />
            <div className="flex gap-2">
              <Button type="submit" size="sm" disabled={editing.question.trim() === "" || save.state !== "idle"}>Save</Button>
              <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(null)}>Cancel</Button>
            </div>
          </save.Form>
        ) : (
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-mist-100">{question.question}</p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Badge tone="aurora">{QUESTION_TYPE_LABELS[question.questionType]}</Badge>
              {question.required ? <Badge tone="gold">Required</Badge> : null}
            </div>
            {question.options?.length ? (
              <ul className="mt-2 flex flex-wrap gap-1 text-xs text-mist-300">
                {question.options.map((option) => (
                  <li key={option} className="rounded border border-aurora-400/20 px-2 py-0.5">{option}</li>
                ))}
              </ul>
            ) : null}
          </div>
        )}
        {editing ? null : (
          <div className="flex shrink-0 items-start gap-1">
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Edit: ${question.question}`}
              onClick={() =>
                setEditing({ question: question.question, questionType: question.questionType, required: question.required, options: question.options ?? [] })
              }
            >
              <Pencil aria-hidden="true" className="size-4" />
              Edit
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="ghost" size="sm" aria-label={`Delete: ${question.question}`}>
                  <Trash2 aria-hidden="true" className="size-4" />
                  Delete
                </Button>
              }
              title="Delete this question?"
              description={DELETE_QUESTION_CONFIRMATION}
              action={
                <remove.Form method="post">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={question.id} />
                  <Button type="submit" variant="danger">Delete</Button>
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
      <h2 id="current-questions" className="mb-4 font-display text-2xl text-mist-100">Current Questions ({questions.length})</h2>
      {questions.length === 0 ? (
        <EmptyState icon={<MessageSquareDashed className="size-10" />} title="No questions yet" description="Add your first application question above" />
      ) : (
        <DndContext id="question-order" sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={shown.map((q) => q.id)} strategy={verticalListSortingStrategy}>
            <ol className="space-y-3">
              {shown.map((question, index) => (
                <QuestionRow key={question.id} question={question} position={index + 1} types={types} />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}
    </section>
  );
}
