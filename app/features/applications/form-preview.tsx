import { Eye } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import type { FormQuestion } from "~/utils/form-questions";
import { m } from "~/paraglide/messages";
import { ApplicationForm } from "./application-form";

/**
 * 'Preview' in the question editor: the form as an applicant meets it, its conditions working and
 * its answers checked by the same rules, with nothing sent or stored.
 */
export function FormPreview({ questions, submitLabel }: { questions: FormQuestion[]; submitLabel: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Card className="p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-mist-300">{m.fp_intro()}</p>
        <Button type="button" variant="outline" size="sm" aria-expanded={open} aria-controls="form-preview" onClick={() => setOpen(!open)}>
          <Icon node={Eye} className="size-4" />
          {open ? m.fp_close() : m.fp_preview()}
        </Button>
      </div>
      {open ? (
        <section id="form-preview" aria-label={m.fp_label()} className="mt-5 border-t border-aurora-400/15 pt-5">
          {questions.length === 0 ? (
            <p className="text-mist-400">{m.fp_empty()}</p>
          ) : (
            <ApplicationForm questions={questions} submitLabel={submitLabel} failure={undefined} preview />
          )}
        </section>
      ) : null}
    </Card>
  );
}
