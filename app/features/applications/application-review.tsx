import { ChevronDown, Download, Search } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Form, Link, useFetcher, useSearchParams } from "react-router";
import { toast } from "sonner";
import { fieldClass, fieldLook } from "~/components/ui/field";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { clsx } from "clsx";
import { EmptyState } from "~/components/ui/empty-state";
import { APPLICATION_STATUSES, type ApplicationStatus } from "~/db/enums";
import type { FormQuestion } from "./answers";
import type { AuditEntry, ReviewedApplication, StatusFilter } from "./review.server";

/** Long answers are cut in the review at this many characters (spec section 9). */
export const REVIEW_ANSWER_LIMIT = 200;

const STATUS_LABEL: Record<ApplicationStatus, string> = { pending: "Pending", approved: "Approved", rejected: "Rejected" };
const STATUS_TONE = { pending: "gold", approved: "live", rejected: "danger" } as const;
const FILTER_LABEL: Record<StatusFilter, string> = { all: "All Status", pending: "Pending", approved: "Approved", rejected: "Rejected" };

export function SummaryTiles({ counts }: { counts: { total: number; pending: number; approved: number; rejected: number } }) {
  const tiles = [
    ["Total Applications", counts.total],
    ["Pending", counts.pending],
    ["Approved", counts.approved],
    ["Rejected", counts.rejected],
  ] as const;
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {tiles.map(([label, value]) => (
        <Card key={label} className="p-4">
          <p className="text-sm font-semibold text-mist-400">{label}</p>
          <p className="mt-1 font-display text-3xl text-mist-100">{value.toLocaleString("en-US")}</p>
        </Card>
      ))}
    </div>
  );
}

/** Search and status filter: a plain GET form, so the list's state lives in the URL. */
export function ReviewFilters({ exportHref, canExport }: { exportHref: string | null; canExport: boolean }) {
  const [params] = useSearchParams();
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" role="search">
      <div className="min-w-56 flex-1 space-y-1">
        <label htmlFor="review-search" className="sr-only">Search</label>
        <div className="relative">
          <Search aria-hidden="true" className="absolute top-3 left-3 size-4 text-mist-400" />
          <input
            id="review-search"
            name="q"
            type="search"
            defaultValue={params.get("q") ?? ""}
            placeholder="Search by VRChat username or Discord ID..."
            className={clsx(fieldLook, "pr-3 pl-9")}
          />
        </div>
      </div>
      <div className="space-y-1">
        <label htmlFor="review-status" className="block text-sm font-semibold text-mist-100">Status</label>
        <select id="review-status" name="status" defaultValue={params.get("status") ?? "all"} className={fieldClass}>
          {(Object.keys(FILTER_LABEL) as StatusFilter[]).map((value) => (
            <option key={value} value={value}>{FILTER_LABEL[value]}</option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="outline">Apply</Button>
      {exportHref ? (
        canExport ? (
          <Button asChild variant="gold">
            <a href={exportHref} download>
              <Download aria-hidden="true" className="size-4" />
              Export CSV
            </a>
          </Button>
        ) : (
          <Button variant="gold" disabled>
            <Download aria-hidden="true" className="size-4" />
            Export CSV
          </Button>
        )
      ) : null}
    </Form>
  );
}

function answerText(answer: string | undefined, question: FormQuestion | undefined) {
  if (!answer) return "No response";
  if (question?.questionType === "textarea" && answer.length > REVIEW_ANSWER_LIMIT) return `${answer.slice(0, REVIEW_ANSWER_LIMIT)}...`;
  return answer;
}

function auditLine(entry: AuditEntry, formatDate: (iso: string) => string) {
  const what =
    entry.field === "status"
      ? `status ${entry.fromValue ?? "—"} → ${entry.toValue ?? "—"}`
      : entry.toValue
        ? "notes updated"
        : "notes cleared";
  return `${formatDate(entry.at)} · ${entry.actorName}: ${what}`;
}

export function ApplicationCard({
  application,
  questions,
  audit,
  mode,
  formatDate,
}: {
  application: ReviewedApplication;
  questions: FormQuestion[];
  audit: AuditEntry[];
  mode: "event" | "group";
  formatDate: (iso: string) => string;
}) {
  const fetcher = useFetcher<{ ok?: boolean; error?: string }>();
  const busy = fetcher.state !== "idle";
  const [notes, setNotes] = useState(application.notes ?? "");
  useEffect(() => {
    if (fetcher.data?.error) toast.error(fetcher.data.error);
  }, [fetcher.data]);

  const byText = new Map(questions.map((q) => [q.question, q]));
  const answered = [
    ...questions.map((q) => q.question),
    ...Object.keys(application.responses).filter((key) => !byText.has(key)),
  ];
  const statuses: ApplicationStatus[] =
    mode === "event" ? [...APPLICATION_STATUSES] : application.status === "pending" ? ["approved", "rejected"] : [];

  // A group decision removes its buttons; the focus one of them held goes to the card's summary,
  // which shows the new status, instead of falling back to the top of the page.
  const summaryRef = useRef<HTMLElement>(null);
  const hadDecisions = useRef(statuses.length > 0);
  useEffect(() => {
    const had = hadDecisions.current;
    hadDecisions.current = statuses.length > 0;
    if (had && statuses.length === 0 && document.activeElement === document.body) summaryRef.current?.focus();
  }, [statuses.length]);

  // While a change is saved the status buttons refuse clicks but stay focusable: a disabled button
  // would drop the keyboard focus to the top of the page.
  function refuseWhileBusy(event: FormEvent) {
    if (busy) event.preventDefault();
  }

  function saveNotes() {
    if (notes === (application.notes ?? "")) return;
    fetcher.submit({ intent: "notes", id: application.id, notes }, { method: "post" });
  }

  return (
    <Card className="p-5" aria-busy={busy}>
      <details className="group">
        <summary ref={summaryRef} className="flex cursor-pointer list-none flex-wrap items-start justify-between gap-3">
          <div>
            <p className="font-semibold text-mist-100">{application.vrchatUsername || "—"}</p>
            <p className="text-sm text-mist-400">{application.discordId || "—"}</p>
            <p className="mt-1 text-xs text-mist-400">
              Submitted: {application.submittedAt ? formatDate(application.submittedAt) : "Unknown"}
              {application.reviewedAt ? ` · Reviewed: ${formatDate(application.reviewedAt)}` : ""}
            </p>
          </div>
          <div className="flex items-center gap-3">
            <Badge tone={STATUS_TONE[application.status]}>{STATUS_LABEL[application.status]}</Badge>
            <span className="inline-flex items-center gap-1 text-sm text-aurora-300">
              Show responses
              <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open:rotate-180" />
            </span>
          </div>
        </summary>
        <div className="mt-4 space-y-5 border-t border-aurora-400/15 pt-4">
          <section>
            <h3 className="font-display text-lg text-mist-100">Application Responses</h3>
            <dl className="mt-2 space-y-3">
              {answered.map((text) => (
                <div key={text}>
                  <dt className="text-sm font-semibold text-mist-300">
                    {text}
                    {byText.get(text)?.required ? <span className="text-ember-400"> *</span> : null}
                  </dt>
                  <dd className="mt-0.5 whitespace-pre-line text-mist-100">{answerText(application.responses[text], byText.get(text))}</dd>
                </div>
              ))}
            </dl>
          </section>
          {mode === "event" && application.notes ? (
            <section>
              <h3 className="font-display text-lg text-mist-100">Admin Notes</h3>
              <p className="mt-1 whitespace-pre-line text-mist-300">{application.notes}</p>
            </section>
          ) : null}
          {statuses.length > 0 ? (
            <div className="flex flex-wrap gap-2">
              {statuses.map((status) => (
                <fetcher.Form key={status} method="post" onSubmit={refuseWhileBusy}>
                  <input type="hidden" name="intent" value="status" />
                  <input type="hidden" name="id" value={application.id} />
                  <input type="hidden" name="status" value={status} />
                  {mode === "event" ? <input type="hidden" name="notes" value={notes} /> : null}
                  <Button
                    type="submit"
                    size="sm"
                    variant={status === application.status ? "primary" : "outline"}
                    aria-disabled={busy || undefined}
                    className="aria-disabled:opacity-50"
                    aria-pressed={mode === "event" ? status === application.status : undefined}
                  >
                    {mode === "group" ? (status === "approved" ? "Approve" : "Reject") : STATUS_LABEL[status]}
                  </Button>
                </fetcher.Form>
              ))}
            </div>
          ) : null}
          {mode === "event" ? (
            <div className="space-y-1">
              <label htmlFor={`notes-${application.id}`} className="block text-sm font-semibold text-mist-100">Admin Notes</label>
              <textarea
                id={`notes-${application.id}`}
                value={notes}
                rows={3}
                maxLength={5000}
                onChange={(e) => setNotes(e.target.value)}
                onBlur={saveNotes}
                disabled={busy}
                className={fieldClass}
              />
            </div>
          ) : null}
          {audit.length > 0 ? (
            <section>
              <h3 className="text-sm font-semibold text-mist-300">History</h3>
              <ul className="mt-1 space-y-0.5 text-xs text-mist-400">
                {audit.map((entry, i) => (
                  <li key={i}>{auditLine(entry, formatDate)}</li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      </details>
    </Card>
  );
}

export function ReviewEmpty({ mode, filtered }: { mode: "event" | "group"; filtered: boolean }) {
  if (mode === "group") return <EmptyState title="No applications found" />;
  return filtered ? (
    <EmptyState title="No applications match your filters" description="Try adjusting your search or filter criteria" />
  ) : (
    <EmptyState title="No applications yet" description="Applications will appear here when users apply for this event" />
  );
}

export function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  const [params] = useSearchParams();
  if (pageCount <= 1) return null;
  const link = (to: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(to));
    return `?${next}`;
  };
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-3 text-sm">
      {page > 1 ? <Link to={link(page - 1)} className="text-aurora-300 hover:text-ember-300">Previous</Link> : <span />}
      <span className="text-mist-400">Page {page} of {pageCount}</span>
      {page < pageCount ? <Link to={link(page + 1)} className="text-aurora-300 hover:text-ember-300">Next</Link> : <span />}
    </nav>
  );
}
