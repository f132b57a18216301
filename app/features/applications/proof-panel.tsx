import { BadgeCheck, ExternalLink } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
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
        <BadgeCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          Your VRChat account{proof.displayName ? ` (${proof.displayName})` : ""} is proven. You may remove the code from your bio now.
        </span>
      </p>
    );
  }
  const account = (
    <a href={proof.account.profileUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 break-all text-aurora-300 underline hover:text-ember-300">
      {proof.account.displayName ?? proof.account.userId}
      <ExternalLink aria-hidden="true" className="size-3 shrink-0" />
      <span className="sr-only"> (opens VRChat in a new tab)</span>
    </a>
  );
  return (
    <section aria-labelledby="proof-heading" className="mt-8 rounded-xl border border-aurora-400/25 bg-night-900/60 p-5" data-testid="proof-panel">
      <h2 id="proof-heading" className="font-display text-xl text-mist-100">
        Prove this account is yours
      </h2>
      <p className="mt-2 text-sm text-mist-300">This application names the VRChat account {account}. Proving that it is yours tells the hosts it is really you who applied.</p>
      {proof.kind === "offer" ? (
        <>
          {proof.expired ? <p className="mt-2 text-sm text-ember-200">Your code has expired.</p> : null}
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="prove-start" />
            <Button type="submit" variant="outline" disabled={busy}>
              {proof.expired ? "Get a new code" : "Prove this account is yours"}
            </Button>
          </Form>
        </>
      ) : (
        <>
          <p className="mt-3 text-sm text-mist-200">Put this code in the bio (or the status) of that VRChat account, save it, then press Check:</p>
          <p className="mt-2">
            <code className="rounded-md bg-night-950 px-3 py-1.5 font-mono text-lg tracking-wider text-ember-200 select-all" data-testid="proof-code">
              {proof.code}
            </code>
          </p>
          <p className="mt-2 text-xs text-mist-400">
            The code works until {formatDate(proof.expiresAt)}. VRChat can take a minute to show a changed bio.
          </p>
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="prove-check" />
            <Button type="submit" disabled={busy} aria-busy={busy}>
              Check
            </Button>
          </Form>
        </>
      )}
    </section>
  );
}
