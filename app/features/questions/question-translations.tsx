import { useEffect, useId } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { fieldClass } from "~/components/ui/field";
import { m } from "~/paraglide/messages";
import { LANGUAGE_NAMES } from "~/utils/language";
import type { EditableQuestion } from "./questions.server";

const nameOf = (language: string) => LANGUAGE_NAMES[language] ?? language;

/**
 * 'In other languages': each question's words for visitors of the site's other languages (its text,
 * help, an agreement's statement and its options' labels). One form per question and language; it
 * posts without JavaScript too.
 */
export function QuestionTranslations({ questions, languages }: { questions: readonly EditableQuestion[]; languages: readonly string[] }) {
  if (languages.length === 0 || questions.length === 0) return null;
  return (
    <section aria-labelledby="question-translations" className="space-y-4">
      <h2 id="question-translations" className="font-display text-2xl text-mist-100">
        {m.qt_heading()}
      </h2>
      {languages.map((language) => (
        <div key={language} className="space-y-3" lang={language}>
          <p className="text-sm text-mist-400">{m.qt_intro({ language: nameOf(language) })}</p>
          {questions.map((question) => (
            <TranslationForm key={`${language}-${question.id}`} question={question} language={language} />
          ))}
        </div>
      ))}
    </section>
  );
}

function TranslationForm({ question, language }: { question: EditableQuestion; language: string }) {
  const fetcher = useFetcher<{ ok?: boolean; error?: string; message?: string }>();
  const id = useId();
  const own = question.translations[language];
  const language_ = nameOf(language);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.error) toast.error(fetcher.data.error);
    else if (fetcher.data.message) toast.success(fetcher.data.message);
  }, [fetcher.state, fetcher.data]);
  const options = question.questionType === "select" || question.questionType === "checkboxes" ? (question.options ?? []) : [];
  return (
    <Card className="p-4">
      <details>
        <summary className="flex cursor-pointer flex-wrap items-center gap-2 text-mist-100">
          <span className="font-semibold">{question.question}</span>
          <Badge tone={own ? "live" : "muted"}>{own ? m.qt_translated() : m.qt_not_translated()}</Badge>
        </summary>
        <fetcher.Form method="post" className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="translate" />
          <input type="hidden" name="id" value={question.id} />
          <input type="hidden" name="language" value={language} />
          <Field id={`${id}-question`} label={m.qt_question({ language: language_ })}>
            <input id={`${id}-question`} name="question" maxLength={500} defaultValue={own?.question ?? ""} placeholder={question.question} className={fieldClass} />
          </Field>
          <Field id={`${id}-help`} label={m.qt_help({ language: language_ })}>
            <input id={`${id}-help`} name="helpText" maxLength={500} defaultValue={own?.helpText ?? ""} placeholder={question.helpText ?? ""} className={fieldClass} />
          </Field>
          {question.questionType === "agreement" ? (
            <Field id={`${id}-statement`} label={m.qt_statement({ language: language_ })}>
              <textarea id={`${id}-statement`} name="statement" rows={4} maxLength={5_000} defaultValue={own?.statement ?? ""} placeholder={question.settings.statement ?? ""} className={fieldClass} />
            </Field>
          ) : null}
          {options.map((option, index) => (
            <Field key={option} id={`${id}-option-${index}`} label={m.qt_option({ option, language: language_ })}>
              <input type="hidden" name="optionFor" value={option} />
              <input id={`${id}-option-${index}`} name="option" maxLength={200} defaultValue={own?.options?.[option] ?? ""} placeholder={option} className={fieldClass} />
            </Field>
          ))}
          <Button type="submit" size="sm" variant="outline" aria-disabled={fetcher.state !== "idle" || undefined}>
            {m.qt_save()}
          </Button>
        </fetcher.Form>
      </details>
    </Card>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-semibold text-mist-100">
        {label}
      </label>
      {children}
    </div>
  );
}
