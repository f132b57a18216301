import { href, Link, redirect } from "react-router";
import { z } from "zod";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { appContext } from "~/context";
import { PEOPLE_TEXTS, STANDING_TEXT } from "~/features/people/people-texts";
import { PeopleSearchBox } from "~/features/people/person-file-page";
import { searchPeople, type FoundPerson } from "~/features/people/person-file.server";
import { formatPersonKey, namedVRChatUser, parsePersonKey } from "~/utils/person-key";
import { logLookupFailure } from "~/features/vrchat/vrchat-membership.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { LookupBudgetError } from "~/utils/lookup-cache.server";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.people._index";

const QuerySchema = z.object({ q: z.string().trim().max(200).catch(""), vrchat: z.literal("1").optional().catch(undefined) });

interface VRChatFound {
  key: string;
  displayName: string;
  thumbnailUrl: string | null;
  standing: keyof typeof STANDING_TEXT;
}

/**
 * The search behind the header's box: Dwell's own records, and on request VRChat's user search (the
 * staff's lookups), whose accounts open a file even before Dwell knows them (to ban one, for instance).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "people");
  const app = context.get(appContext);
  const url = new URL(request.url);
  const { q, vrchat } = QuerySchema.parse(Object.fromEntries(url.searchParams));
  // A key, a file's address, a VRChat id or profile link opens that file at once.
  const named = namedVRChatUser(q);
  const key = parsePersonKey(q) ? q : named ? formatPersonKey({ kind: "vrchat", id: named }) : null;
  if (key) throw redirect(`/admin/people/${key}`);
  const found: FoundPerson[] = q ? await searchPeople(app.db, q) : [];
  let fromVRChat: VRChatFound[] | null = null;
  let vrchatError: string | null = null;
  if (q && vrchat) {
    if (!app.vrchat.membership) vrchatError = PEOPLE_TEXTS.vrchatNotConfigured;
    else {
      try {
        fromVRChat = (await app.vrchat.membership.findCandidates(q)).map((candidate) => ({
          key: formatPersonKey({ kind: "vrchat", id: candidate.id }),
          displayName: candidate.displayName,
          thumbnailUrl: candidate.thumbnailUrl,
          standing: candidate.status,
        }));
      } catch (error) {
        logLookupFailure(error);
        vrchatError = error instanceof LookupBudgetError ? error.message : PEOPLE_TEXTS.vrchatDown;
      }
    }
  }
  return { q, found, fromVRChat, vrchatError, vrchatConfigured: app.vrchat.membership !== null };
}

export function meta() {
  return [{ title: m.peopler_index_title() }];
}

export default function PeopleSearchPage({ loaderData }: Route.ComponentProps) {
  const { q, found, fromVRChat, vrchatError, vrchatConfigured } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="font-display text-4xl text-mist-100">{m.peopler_heading()}</h1>
        <p className="mt-2 max-w-2xl text-mist-300">{PEOPLE_TEXTS.searchIntro}</p>
      </div>
      <PeopleSearchBox query={q} />
      {q ? (
        <section aria-label={m.peopler_found_site()} className="space-y-2" data-testid="people-found">
          {found.length === 0 ? <p className="text-sm text-mist-400">{PEOPLE_TEXTS.noneFound(q)}</p> : null}
          <ul className="space-y-2">
            {found.map((person) => (
              <li key={person.key}>
                <Card className="flex flex-wrap items-center gap-2 p-3">
                  <Link to={href("/admin/people/:key", { key: person.key })} className="font-semibold text-aurora-300 underline-offset-2 hover:underline">
                    {person.name || person.key}
                  </Link>
                  <span className="text-sm text-mist-400">{person.detail}</span>
                </Card>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {q && vrchatConfigured && !fromVRChat && !vrchatError ? (
        <form method="get" action="/admin/people">
          <input type="hidden" name="q" value={q} />
          <input type="hidden" name="vrchat" value="1" />
          <Button type="submit" size="sm" variant="outline">
            {PEOPLE_TEXTS.searchVRChat(q)}
          </Button>
        </form>
      ) : null}
      {vrchatError ? <p role="alert" className="text-sm text-ember-300">{vrchatError}</p> : null}
      {fromVRChat ? (
        <section aria-label={m.peopler_found_vrchat()} className="space-y-2" data-testid="people-vrchat">
          <h2 className="font-display text-2xl text-mist-100">{m.peopler_in_vrchat()}</h2>
          {fromVRChat.length === 0 ? <p className="text-sm text-mist-400">{PEOPLE_TEXTS.vrchatNone(q)}</p> : null}
          <ul className="space-y-2">
            {fromVRChat.map((account) => (
              <li key={account.key}>
                <Card className="flex flex-wrap items-center gap-3 p-3">
                  {account.thumbnailUrl ? <img src={account.thumbnailUrl} alt="" className="size-10 rounded-lg object-cover" loading="lazy" /> : null}
                  <Link to={href("/admin/people/:key", { key: account.key })} className="font-semibold text-aurora-300 underline-offset-2 hover:underline">
                    {account.displayName}
                  </Link>
                  <Badge tone={account.standing === "member" ? "live" : account.standing === "banned" ? "danger" : "muted"}>{STANDING_TEXT[account.standing]()}</Badge>
                </Card>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
