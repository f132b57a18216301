import { data, redirect } from "react-router";
import { z } from "zod";
import { appContext, type AppContext } from "~/context";
import { discordUserIdFrom } from "~/features/discord/discord-api.server";
import { addNote, mergeFiles, mergesInForce, resolvePersonKey, splitFile } from "~/features/people/people.server";
import { NOTE_LIMIT, PEOPLE_TEXTS } from "~/features/people/people-texts";
import { readPersonFile } from "~/features/people/person-file.server";
import { ActList } from "~/features/moderation/moderation-page";
import { actsOfPerson } from "~/features/moderation/moderation.server";
import { MergesSection, NotesSection, PersonHeader, type LiveFacts } from "~/features/people/person-file-page";
import { AccountsSection, ApplicationsSection, BansSection, JoinRequestsSection, PairSection } from "~/features/people/person-file-parts";
import { confirmedPairs, confirmPair, staffWordOn, withdrawPair } from "~/features/people/identities.server";
import { formatPersonKey, namedVRChatUser, parsePersonKey } from "~/utils/person-key";
import { logLookupFailure } from "~/features/vrchat/vrchat-membership.server";
import { banPerson } from "~/flows/bans.server";
import { decideServices, type Decider } from "~/flows/decide.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { LookupBudgetError } from "~/utils/lookup-cache.server";
import { allows } from "~/utils/roles";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.people.$key";

/** VRChat's answer is awaited this long; the page itself never waits for it. */
const LIVE_TIMEOUT_MS = 4_000;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "people");
  const app = context.get(appContext);
  if (!parsePersonKey(params.key)) throw data(PEOPLE_TEXTS.notFound, { status: 404 });
  const merges = await mergesInForce(app.db);
  const root = await resolvePersonKey(app.db, params.key, merges);
  // The file is read under the key that holds it, whatever address led here.
  if (root !== params.key) throw redirect(`/admin/people/${root}`);
  const file = await readPersonFile(app.db, root, merges);
  // An application's key names that application: without it there is no such file.
  if (parsePersonKey(root)?.kind === "application" && file.applications.length === 0) throw data(PEOPLE_TEXTS.notFound, { status: 404 });
  const vrchatId = file.keys.find((key) => key.kind === "vrchat")?.id ?? null;
  const live = liveFacts(app.vrchat.membership, vrchatId);
  // Someone Dwell has not met (found in VRChat's search): VRChat's name is the only one there is.
  if (file.name === root && vrchatId) {
    const facts = await live;
    if (facts.kind === "facts") file.name = facts.displayName;
  }
  // Facts already at hand (VRChat's answer is cached for a few minutes) are drawn with the page; only
  // a question still out to VRChat is streamed after it.
  const ready = await Promise.race([live, new Promise<null>((resolve) => setImmediate(() => resolve(null)))]);
  // Their part of the moderation history (what was done to these accounts, in VRChat, Discord and Dwell).
  const moderation = allows(viewer.role, "moderation")
    ? await actsOfPerson(app.db, { vrchat: file.keys.filter((key) => key.kind === "vrchat").map((key) => key.id), discord: file.keys.filter((key) => key.kind === "discord").map((key) => key.id) })
    : null;
  // Their VRChat and Discord accounts, and whether they are known to be the same person.
  const vrchatKey = file.keys.find((key) => key.kind === "vrchat")?.id;
  const discordKey = file.keys.find((key) => key.kind === "discord")?.id;
  const pair =
    vrchatKey && discordKey
      ? {
          vrchatUserId: vrchatKey,
          discordUserId: discordKey,
          confirmed: (await confirmedPairs(app.db, { vrchat: [vrchatKey] })).some((known) => known.discordUserId === discordKey),
          byStaffWord: await staffWordOn(app.db, { vrchatUserId: vrchatKey, discordUserId: discordKey }),
          mayChange: allows(viewer.role, "people.pair"),
        }
      : null;
  return {
    file,
    moderation,
    pair,
    live: ready ?? live,
    mayBan: allows(viewer.role, "bans") && file.keys.some((key) => key.kind !== "application"),
    mayMerge: allows(viewer.role, "people.merge"),
  };
}

type Membership = AppContext["vrchat"]["membership"];

/** What VRChat says of them now, from the staff's lookups; never a failure of the page. */
async function liveFacts(membership: Membership, vrchatId: string | null): Promise<LiveFacts> {
  if (!vrchatId) return { kind: "not-linked", text: PEOPLE_TEXTS.liveNotLinked };
  if (!membership) return { kind: "unavailable", text: PEOPLE_TEXTS.vrchatNotConfigured };
  let timer: NodeJS.Timeout | undefined;
  try {
    const facts = await Promise.race([
      membership.personFacts(vrchatId),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("VRChat did not answer in time")), LIVE_TIMEOUT_MS))),
    ]);
    return facts ? { kind: "facts", ...facts } : { kind: "none", text: PEOPLE_TEXTS.liveNone };
  } catch (error) {
    logLookupFailure(error);
    return { kind: "unavailable", text: error instanceof LookupBudgetError ? error.message : PEOPLE_TEXTS.vrchatDown };
  } finally {
    clearTimeout(timer);
  }
}

/** Another file, as staff name it: its address or key, a VRChat profile link or id, or a Discord id. */
function otherKey(text: string): string | null {
  const fromAddress = /\/admin\/people\/([^/?#\s]+)/.exec(text)?.[1] ?? text.trim();
  if (parsePersonKey(fromAddress)) return fromAddress;
  const vrchat = namedVRChatUser(text);
  if (vrchat) return formatPersonKey({ kind: "vrchat", id: vrchat });
  const discord = discordUserIdFrom(text);
  return discord ? formatPersonKey({ kind: "discord", id: discord }) : null;
}

const NoteSchema = z.string().trim().min(1, { error: PEOPLE_TEXTS.noteEmpty }).max(NOTE_LIMIT, { error: PEOPLE_TEXTS.noteTooLong(NOTE_LIMIT) });

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "people");
  const app = context.get(appContext);
  if (!parsePersonKey(params.key)) return data({ error: PEOPLE_TEXTS.notFound }, { status: 404 });
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: m.bansr_form_unreadable() }, { status: 400 });
  const root = await resolvePersonKey(app.db, params.key);
  const by = { id: viewer.id, name: viewer.username };
  const now = new Date();
  switch (form.get("intent")) {
    case "note": {
      const body = NoteSchema.safeParse(form.get("body") ?? "");
      if (!body.success) return data({ error: body.error.issues[0]!.message }, { status: 400 });
      await addNote(app.db, root, body.data, by, now);
      return { ok: true as const, message: PEOPLE_TEXTS.noteAdded };
    }
    case "pair":
    case "unpair": {
      if (!allows(viewer.role, "people.pair")) return data({ error: PEOPLE_TEXTS.mergeOnly }, { status: 403 });
      const file = await readPersonFile(app.db, root);
      const pair = { vrchatUserId: String(form.get("vrchatUserId") ?? ""), discordUserId: String(form.get("discordUserId") ?? "") };
      // Only two accounts this file holds are paired from here.
      if (!file.keys.some((key) => key.kind === "vrchat" && key.id === pair.vrchatUserId) || !file.keys.some((key) => key.kind === "discord" && key.id === pair.discordUserId)) {
        return data({ error: PEOPLE_TEXTS.notFound }, { status: 409 });
      }
      const names = { vrchat: pair.vrchatUserId, discord: pair.discordUserId };
      if (form.get("intent") === "unpair") {
        await withdrawPair(app.db, pair, by);
        await addNote(app.db, root, m.pair_note_withdrawn(names), by, now);
        return { ok: true as const, message: m.pair_withdrawn() };
      }
      if ((await confirmPair(app.db, pair, by)) === "already") return data({ error: m.pair_already() }, { status: 409 });
      await addNote(app.db, root, m.pair_note(names), by, now);
      return { ok: true as const, message: m.pair_confirmed() };
    }
    case "merge": {
      if (!allows(viewer.role, "people.merge")) return data({ error: PEOPLE_TEXTS.mergeOnly }, { status: 403 });
      const other = otherKey(String(form.get("other") ?? "").slice(0, 500));
      if (!other) return data({ error: PEOPLE_TEXTS.mergeUnknown }, { status: 400 });
      const outcome = await mergeFiles(app.db, other, root, by, now);
      if (outcome.kind === "same") return data({ error: PEOPLE_TEXTS.mergeSame }, { status: 409 });
      if (outcome.kind === "busy") return data({ error: PEOPLE_TEXTS.mergeBusy }, { status: 409 });
      return { ok: true as const, message: PEOPLE_TEXTS.merged };
    }
    case "split": {
      if (!allows(viewer.role, "people.merge")) return data({ error: PEOPLE_TEXTS.mergeOnly }, { status: 403 });
      const key = String(form.get("key") ?? "");
      const file = await readPersonFile(app.db, root);
      // Only what this file holds is split off from here.
      if (!parsePersonKey(key) || !file.merges.some((merge) => merge.personKey === key && !merge.splitAt && file.keys.some((held) => formatPersonKey(held) === merge.intoKey))) {
        return data({ error: PEOPLE_TEXTS.splitNone }, { status: 409 });
      }
      if (!(await splitFile(app.db, key, by, now))) return data({ error: PEOPLE_TEXTS.splitNone }, { status: 409 });
      return { ok: true as const, message: PEOPLE_TEXTS.split };
    }
    case "ban":
      return banFromFile(app, root, form.get("reason"), { id: viewer.id, username: viewer.username, via: "sanctum", role: viewer.role });
  }
  return data({ error: m.unknown_action() }, { status: 400 });
}

/** Bans each VRChat account the file holds (with its Discord account beside the first), or its Discord account alone. */
async function banFromFile(app: AppContext, root: string, reasonField: FormDataEntryValue | null, decider: Decider & { role: Parameters<typeof allows>[0] }) {
  if (!allows(decider.role, "bans")) return data({ error: m.apps_bans_owners() }, { status: 403 });
  const reason = z.string().trim().min(1, { error: () => m.apps_ban_reason() }).max(1_000).safeParse(reasonField ?? "");
  if (!reason.success) return data({ error: reason.error.issues[0]!.message }, { status: 400 });
  const file = await readPersonFile(app.db, root);
  const vrchat = file.keys.filter((key) => key.kind === "vrchat").map((key) => key.id);
  const discord = file.keys.find((key) => key.kind === "discord")?.id ?? null;
  const people = vrchat.length > 0 ? vrchat.map((id, index) => ({ vrchatUserId: id, discordUserId: index === 0 ? discord : null })) : discord ? [{ vrchatUserId: null, discordUserId: discord }] : [];
  if (people.length === 0) return data({ error: PEOPLE_TEXTS.banNone }, { status: 409 });
  if (vrchat.length > 0 && !app.vrchat.membership) return data({ error: m.people_vrchat_off_ban() }, { status: 409 });
  let name = file.name;
  if (name === root && vrchat[0] && app.vrchat.membership) {
    // Nothing on file: VRChat must know them, and gives the name the ban is listed under.
    const user = await app.vrchat.membership.describeUser(vrchat[0]).catch(() => undefined);
    if (user === undefined) return data({ error: PEOPLE_TEXTS.vrchatDown }, { status: 503 });
    if (user === null) return data({ error: PEOPLE_TEXTS.liveNone }, { status: 404 });
    name = user.displayName;
  }
  let banned = 0;
  for (const person of people) {
    const outcome = await banPerson(decideServices(app), { ...person, displayName: name }, reason.data, decider);
    if (outcome.kind === "banned") banned += 1;
  }
  if (banned === 0) return data({ error: m.jrr_already_banned({ name }) }, { status: 409 });
  return { ok: true as const, message: `${name} is banned.` };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: m.peopler_title({ name: loaderData?.file.name ?? m.peopler_person() }) }];
}

export default function PersonFilePage({ loaderData }: Route.ComponentProps) {
  const { file, live, mayBan, mayMerge, moderation, pair } = loaderData;
  const counted = file.applications.filter((application) => !application.spam).length;
  return (
    <div className="space-y-8">
      <PersonHeader
        name={file.name}
        live={live}
        summary={{ applications: counted, attended: file.attendance.attended, noShows: file.attendance.noShows, banned: file.bans.some((ban) => !ban.liftedAt) }}
        ban={mayBan ? { name: file.name } : null}
      />
      {file.applications.length === 0 && file.joinRequests.length === 0 && file.bans.length === 0 && file.notes.length === 0 ? (
        <p className="text-sm text-mist-400">{PEOPLE_TEXTS.nothingYet}</p>
      ) : null}
      <AccountsSection file={file} />
      {pair ? <PairSection pair={pair} /> : null}
      <NotesSection notes={file.notes} />
      <ApplicationsSection applications={file.applications} />
      <JoinRequestsSection requests={file.joinRequests} />
      <BansSection bans={file.bans} />
      {moderation ? (
        <section aria-labelledby="person-moderation" className="space-y-3" data-testid="person-moderation">
          <h2 id="person-moderation" className="font-display text-2xl text-mist-100">
            {m.mod_person_title()}
          </h2>
          {moderation.length === 0 ? <p className="text-sm text-mist-400">{m.mod_person_none()}</p> : <ActList acts={moderation} filters={{}} files={false} />}
        </section>
      ) : null}
      <MergesSection merges={file.merges} heldKeys={file.keys.map(formatPersonKey)} mayMerge={mayMerge} />
    </div>
  );
}
