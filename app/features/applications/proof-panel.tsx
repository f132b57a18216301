import { BadgeCheck, ExternalLink } from "lucide";
import { Icon } from "~/components/ui/icon";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { m } from "~/paraglide/messages";
import type { ProofView } from "./proof";

/**
 * On the applicant's status page: 'Prove this account is yours', the code to put in their VRChat
 * bio, and 'Check'. Plain forms (no script needed), posting to the status page's action.
 */
export function ProofPanel({ proof, formatDate }: { proof: ProofView; formatDate: (iso: string) => string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && String(navigation.formData?.get("intent") ?? "").startsWith("prove");
  if (proof.kind === "none") return null;
  if (proof.kind === "proven") {
    return (
      <p className="mt-6 flex items-start gap-2 rounded-lg border border-emerald-400/30 bg-emerald-400/10 px-3 py-2 text-sm text-emerald-200" data-testid="proof-proven">
        <Icon node={BadgeCheck} className="mt-0.5 size-4 shrink-0" />
        <span>
          {proof.displayName ? m.proof_proven_named({ name: proof.displayName }) : m.proof_proven()}
        </span>
      </p>
    );
  }
  const account = (
    <a href={proof.account.profileUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 break-all text-aurora-300 underline hover:text-ember-300">
      {proof.account.displayName ?? proof.account.userId}
      <Icon node={ExternalLink} className="size-3 shrink-0" />
      <span className="sr-only"> {m.proof_opens_vrchat()}</span>
    </a>
  );
  return (
    <section aria-labelledby="proof-heading" className="mt-8 rounded-xl border border-aurora-400/25 bg-night-900/60 p-5" data-testid="proof-panel">
      <h2 id="proof-heading" className="font-display text-xl text-mist-100">
        {m.apply_prove()}
      </h2>
      <p className="mt-2 text-sm text-mist-300">
        {m.proof_names_before()}
        {account}
        {m.proof_names_after()}
      </p>
      {proof.kind === "offer" ? (
        <>
          {proof.expired ? <p className="mt-2 text-sm text-ember-200">{m.proof_expired()}</p> : null}
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="prove-start" />
            <Button type="submit" variant="outline" disabled={busy}>
              {proof.expired ? m.proof_new_code() : m.apply_prove()}
            </Button>
          </Form>
        </>
      ) : (
        <>
          <p className="mt-3 text-sm text-mist-200">{m.proof_put_code()}</p>
          <p className="mt-2">
            <code className="rounded-md bg-night-950 px-3 py-1.5 font-mono text-lg tracking-wider text-ember-200 select-all" data-testid="proof-code">
              {proof.code}
            </code>
          </p>
          <p className="mt-2 text-xs text-mist-400">
            {m.proof_code_until({ until: formatDate(proof.expiresAt) })}
          </p>
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="prove-check" />
            <Button type="submit" disabled={busy} aria-busy={busy}>
              {m.proof_check()}
            </Button>
          </Form>
        </>
      )}
    </section>
  );
}
