import { BadgeCheck } from "lucide";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { m } from "~/paraglide/messages";

/**
 * On the applicant's status page: the Discord account they proved by signing in, or 'Link your
 * Discord' (a plain form: the page's action starts Discord's sign-in).
 */
export function ApplicantDiscordPanel({ view }: { view: { kind: "proven"; name: string } | { kind: "offer" } | { kind: "none" } }) {
  if (view.kind === "none") return null;
  if (view.kind === "proven") {
    return (
      <p className="mt-6 flex items-start gap-2 rounded-lg border border-emerald-400/30 bg-emerald-400/10 px-3 py-2 text-sm text-emerald-200" data-testid="discord-proven">
        <Icon node={BadgeCheck} className="mt-0.5 size-4 shrink-0" />
        <span>{m.adl_linked({ name: view.name })}</span>
      </p>
    );
  }
  return (
    <section aria-labelledby="discord-link-heading" className="mt-6 rounded-xl border border-aurora-400/20 p-4" data-testid="discord-offer">
      <h2 id="discord-link-heading" className="font-display text-lg text-mist-100">
        {m.adl_heading()}
      </h2>
      <p className="mt-1 text-sm text-mist-300">{m.adl_text()}</p>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="discord-start" />
        <Button type="submit" variant="outline" size="sm">
          {m.adl_start()}
        </Button>
      </Form>
    </section>
  );
}
