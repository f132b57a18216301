/** An answer on a card, shown the way its type means it: a list, a badge, a date, a link, an agreement. */
import { Badge } from "~/components/ui/badge";
import { YES, type StoredAnswer } from "~/utils/form-questions";
import { m } from "~/paraglide/messages";
import { dayText, isCalendarDay } from "./answers";

/** Long answers are cut in the review at this many characters (spec section 9). */
export const REVIEW_ANSWER_LIMIT = 200;


/** Only web addresses become links; anything else (an answer kept from before the check) stays text. */
const isWebLink = (text: string) => /^https?:\/\/\S+$/i.test(text);

export function AnswerView({ answer }: { answer: StoredAnswer }) {
  const { value, type } = answer;
  if (Array.isArray(value)) {
    if (value.length === 0) return <>{m.no_response()}</>;
    return (
      <ul className="list-inside list-disc space-y-0.5">
        {value.map((choice) => (
          <li key={choice}>{choice}</li>
        ))}
      </ul>
    );
  }
  if (value === "") return <>{m.no_response()}</>;
  switch (type) {
    case "textarea":
      return <>{value.length > REVIEW_ANSWER_LIMIT ? `${value.slice(0, REVIEW_ANSWER_LIMIT)}...` : value}</>;
    case "yes_no":
      return <Badge tone={value === YES ? "live" : "muted"}>{value}</Badge>;
    case "date":
      return <>{isCalendarDay(value) ? dayText(value) : value}</>;
    case "agreement":
      return (
        <span className="block space-y-1">
          <Badge tone="live">{value}</Badge>
          {answer.statement ? <span className="block border-l-2 border-aurora-400/30 pl-3 text-sm text-mist-300">{answer.statement}</span> : null}
        </span>
      );
    case "link":
    case "vrchat_profile":
      return isWebLink(value) ? (
        <a href={value} target="_blank" rel="noopener noreferrer" className="break-all text-aurora-300 underline hover:text-ember-300">
          {value}
        </a>
      ) : (
        <>{value}</>
      );
    default:
      return <>{value}</>;
  }
}
