/** Who Discord says signed in, and the button that links that account: the staff's and the applicants' confirmation pages. */
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Interpolated } from "~/components/ui/interpolated";

export function DiscordSignedIn({
  account,
  message,
  intent,
  children,
}: {
  account: { name: string; userId: string };
  /** The sentence naming the account, with `{name}` and `{id}`. */
  message: (inputs: Record<"name" | "id", string>) => string;
  /** The form's `intent`, where the page's action has several. */
  intent?: string;
  /** The button's label. */
  children: ReactNode;
}) {
  return (
    <Card className="space-y-4 p-5">
      <p className="text-mist-300">
        <Interpolated
          message={message}
          parts={{ name: <span className="font-semibold text-mist-100">{account.name}</span>, id: <span className="text-sm text-mist-400">{account.userId}</span> }}
        />
      </p>
      <Form method="post">
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        <Button type="submit">{children}</Button>
      </Form>
    </Card>
  );
}
