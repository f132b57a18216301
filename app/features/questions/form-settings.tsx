/** A form's own settings on its questions page: each a checkbox saved on its own. */
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { m } from "~/paraglide/messages";
import { Card } from "~/components/ui/card";

function FormSetting({ intent, name, checked, title, description, mayChoose = true }: { intent: string; name: string; checked: boolean; title: string; description: string; mayChoose?: boolean }) {
  const fetcher = useFetcher<{ ok?: boolean; error?: string }>();
  const busy = fetcher.state !== "idle";
  return (
    <Card className="p-5">
      <fetcher.Form method="post" className="flex flex-wrap items-end justify-between gap-4">
        <input type="hidden" name="intent" value={intent} />
        <label className="flex max-w-xl items-start gap-3 text-sm text-mist-100">
          <input type="checkbox" name={name} defaultChecked={checked} disabled={!mayChoose} className="mt-0.5 size-5 shrink-0 accent-ember-400" />
          <span>
            <span className="font-semibold">{title}</span>
            <span className="block text-mist-400">{description}</span>
          </span>
        </label>
        {mayChoose ? (
          <Button type="submit" size="sm" variant="outline" disabled={busy} aria-busy={busy}>
            {m.fs_save()}
          </Button>
        ) : (
          <p className="text-sm text-mist-400">{m.fs_owner_only()}</p>
        )}
      </fetcher.Form>
      {fetcher.state === "idle" && fetcher.data?.error ? (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {fetcher.data.error}
        </p>
      ) : fetcher.state === "idle" && fetcher.data?.ok ? (
        <p role="status" className="mt-3 text-sm text-emerald-300">
          {m.fs_saved()}
        </p>
      ) : null}
    </Card>
  );
}

/** 'Require a proven VRChat account' for the group's form (an event's is in its editor). */
export function RequireProofForm({ required }: { required: boolean }) {
  return (
    <FormSetting
      intent="require-proof"
      name="requiresProof"
      checked={required}
      title={m.fs_proof_title()}
      description={m.fs_proof_text()}
    />
  );
}

/** 'Applicants may edit their answers' for one form (the group's, or an event's): the owner's choice. */
export function ApplicantEditsForm({ allowed, mayChoose }: { allowed: boolean; mayChoose: boolean }) {
  return (
    <FormSetting
      intent="applicant-edits"
      name="applicantEdits"
      checked={allowed}
      mayChoose={mayChoose}
      title={m.fs_edits_title()}
      description={m.fs_edits_text()}
    />
  );
}
