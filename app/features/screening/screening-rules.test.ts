import { describe, expect, it } from "vitest";
import { accountFactsOf, trustRankOf } from "~/utils/vrchat-account";
import { SYSTEM_FLAGS } from "~/utils/screening-flags";
import { holdsWord, RuleInputSchema, screen, type Facts, type Rule } from "./screening-rules";

const NOW = new Date("2026-11-27T12:00:00Z");
const known: Facts = {
  where: { kind: "group" },
  linkedHow: "proven",
  vrchat: { trustRank: "known_user", joinedOn: "2025-01-01", shows18: true, bio: "I build worlds and host music nights." },
  groups: null,
  banned: false,
  noShows: 0,
  answers: { "How did you find the Dwellers?": "A friend" },
};
const rule = (id: string, fields: Omit<Rule, "id" | "scope"> & Partial<Pick<Rule, "scope">>): Rule => ({ id, scope: { kind: "group" }, ...fields });
const knownOver30 = rule("r1", { name: "Known users over 30 days", conditions: [{ kind: "trust_at_least", rank: "known_user" }, { kind: "account_older_than", days: 30 }, { kind: "shows_18_plus" }], outcome: { kind: "approve" } });
const spammers = rule("r2", { name: "Spam bios", conditions: [{ kind: "bio_contains", words: ["free robux", "discord.gg"] }], outcome: { kind: "reject", message: "We cannot accept this application." } });
const newcomers = rule("r3", { name: "New accounts", conditions: [{ kind: "account_older_than", days: 0 }], outcome: { kind: "flag", flag: "Look at this one" } });

describe("trustRankOf", () => {
  it("takes the highest rank the tags give, and Visitor without any", () => {
    expect(trustRankOf([])).toBe("visitor");
    expect(trustRankOf(["system_trust_basic"])).toBe("new_user");
    expect(trustRankOf(["system_trust_basic", "system_trust_known", "language_eng"])).toBe("user");
    expect(trustRankOf(["system_trust_basic", "system_trust_known", "system_trust_trusted"])).toBe("known_user");
    expect(trustRankOf(["system_trust_veteran", "system_trust_trusted"])).toBe("trusted_user");
  });

  it("reads an account's facts as VRChat answers them", () => {
    expect(accountFactsOf({ id: "usr_x", tags: ["system_trust_known"], date_joined: "2024-03-05", ageVerificationStatus: "18+", bio: "hi" })).toEqual({ trustRank: "user", joinedOn: "2024-03-05", shows18: true, bio: "hi" });
    expect(accountFactsOf({ id: "usr_x", ageVerificationStatus: "verified" })).toEqual({ trustRank: "visitor", joinedOn: null, shows18: false, bio: null });
  });
});

describe("holdsWord", () => {
  it("matches whole words and phrases in any case, not parts of words", () => {
    expect(holdsWord("Get FREE Robux now", ["free robux"])).toBe(true);
    expect(holdsWord("join discord.gg/abc", ["discord.gg"])).toBe(true);
    expect(holdsWord("freedom", ["free"])).toBe(false);
    expect(holdsWord("Ça va, café ?", ["café"])).toBe(true);
    expect(holdsWord("cafés", ["café"])).toBe(false);
  });
});

describe("screen", () => {
  it("the first rule whose conditions all hold decides", () => {
    expect(screen([knownOver30, spammers], known, NOW)).toMatchObject({ kind: "decide", rule: { id: "r1" }, outcome: { kind: "approve" } });
    const spammy = { ...known, vrchat: { ...(known.vrchat as object), bio: "Free robux at discord.gg/x" } } as Facts;
    expect(screen([spammers, knownOver30], spammy, NOW)).toMatchObject({ kind: "decide", rule: { id: "r2" }, outcome: { kind: "reject" } });
    const young = { ...known, vrchat: { ...(known.vrchat as object), joinedOn: "2026-11-20" } } as Facts;
    expect(screen([knownOver30, newcomers], young, NOW)).toMatchObject({ kind: "decide", rule: { id: "r3" }, outcome: { kind: "flag", flag: "Look at this one" } });
    expect(screen([knownOver30], { ...known, vrchat: { ...(known.vrchat as object), trustRank: "user" } } as Facts, NOW)).toEqual({ kind: "none" });
  });

  it("waits when a fact a rule needs could not be read, rather than skipping to a later rule", () => {
    const unread: Facts = { ...known, vrchat: null };
    expect(screen([knownOver30, spammers], unread, NOW)).toMatchObject({ kind: "wait", rule: { id: "r1" } });
    // A rule that already fails on what was read does not wait.
    const answerFirst = rule("r4", { name: "Friends of friends", conditions: [{ kind: "answer_is", question: "How did you find the Dwellers?", options: ["Discord"] }, { kind: "trust_at_least", rank: "user" }], outcome: { kind: "approve" } });
    expect(screen([answerFirst], unread, NOW)).toEqual({ kind: "none" });
    const groups = rule("r5", { name: "Partner groups", conditions: [{ kind: "in_groups", groupIds: ["grp_00000000-0000-4000-8000-000000000001"] }], outcome: { kind: "approve" } });
    expect(screen([groups], known, NOW)).toMatchObject({ kind: "wait" });
    expect(screen([groups], { ...known, groups: ["grp_00000000-0000-4000-8000-000000000001"] }, NOW)).toMatchObject({ kind: "decide", outcome: { kind: "approve" } });
    // A Checkboxes answer: the condition holds when any ticked choice is named (and 'is not' when none is).
    const musicians = rule("r7", { name: "Musicians", conditions: [{ kind: "answer_is", question: "What do you perform?", options: ["Music"] }], outcome: { kind: "approve" } });
    const notMusicians = rule("r8", { name: "Not musicians", conditions: [{ kind: "answer_is_not", question: "What do you perform?", options: ["Music"] }], outcome: { kind: "approve" } });
    const ticked = { ...known, answers: { "What do you perform?": ["Dance", "Music"] } };
    expect(screen([musicians], ticked, NOW)).toMatchObject({ kind: "decide", rule: { id: "r7" } });
    expect(screen([notMusicians], ticked, NOW)).toEqual({ kind: "none" });
    expect(screen([musicians], { ...known, answers: { "What do you perform?": ["Dance"] } }, NOW)).toEqual({ kind: "none" });
    const banned = rule("r6", { name: "Banned", conditions: [{ kind: "banned" }], outcome: { kind: "reject", message: "No." } });
    expect(screen([banned], { ...known, banned: null }, NOW)).toMatchObject({ kind: "wait" });
  });

  it("with no account linked, conditions on the account do not hold, and nothing waits", () => {
    expect(screen([knownOver30, spammers, newcomers], { ...known, linkedHow: null, vrchat: "none" }, NOW)).toEqual({ kind: "none" });
    const noShows = rule("r7", { name: "No-shows", conditions: [{ kind: "no_shows_at_least", count: 2 }], outcome: { kind: "flag", flag: "Missed two events" } });
    expect(screen([noShows], { ...known, vrchat: "none", noShows: 2 }, NOW)).toMatchObject({ kind: "decide", outcome: { flag: "Missed two events" } });
  });

  it("approves automatically only a proven account or a join request made by the account itself; a name match, a pasted link or a staff member's choice is flagged", () => {
    expect(screen([knownOver30], known, NOW)).toMatchObject({ outcome: { kind: "approve" } });
    expect(screen([knownOver30], { ...known, where: { kind: "join_request" }, linkedHow: null }, NOW)).toMatchObject({ outcome: { kind: "approve" } });
    for (const linkedHow of ["name", "staff", null] as const) {
      expect(screen([knownOver30], { ...known, linkedHow }, NOW)).toMatchObject({ outcome: { kind: "flag", flag: SYSTEM_FLAGS.needsProven } });
    }
    // A rejection or a flag needs no proof: it acts on the application, not on an account.
    expect(screen([spammers], { ...known, linkedHow: "name", vrchat: { ...(known.vrchat as object), bio: "free robux here" } as Facts["vrchat"] }, NOW)).toMatchObject({ outcome: { kind: "reject" } });
  });

  it("reads a bio VRChat did not send as unread: a rule on the bio waits rather than taking it for empty", () => {
    const lacks = rule("r8", { name: "No spam words", conditions: [{ kind: "bio_lacks", words: ["free robux"] }], outcome: { kind: "flag", flag: "Clean bio" } });
    const unread = { ...known, vrchat: { ...(known.vrchat as object), bio: null } as Facts["vrchat"] };
    expect(screen([lacks], unread, NOW)).toMatchObject({ kind: "wait" });
    expect(screen([spammers], unread, NOW)).toMatchObject({ kind: "wait" });
    expect(accountFactsOf({ id: "usr_x", tags: [] }).bio).toBeNull();
    expect(accountFactsOf({ id: "usr_x", tags: [], bio: "" }).bio).toBe("");
  });

  it("applies a rule only where it is scoped", () => {
    const oneEvent = { ...knownOver30, scope: { kind: "event" as const, eventId: "7d9f0b7e-5b1c-4c1e-9a59-0d0a7c1f2b3c" } };
    const allEvents = { ...knownOver30, scope: { kind: "events" as const } };
    expect(screen([oneEvent, allEvents], known, NOW)).toEqual({ kind: "none" });
    expect(screen([oneEvent], { ...known, where: { kind: "event", eventId: "7d9f0b7e-5b1c-4c1e-9a59-0d0a7c1f2b3c" } }, NOW)).toMatchObject({ kind: "decide" });
    expect(screen([oneEvent], { ...known, where: { kind: "event", eventId: "00000000-0000-4000-8000-000000000000" } }, NOW)).toEqual({ kind: "none" });
    expect(screen([allEvents], { ...known, where: { kind: "event", eventId: "00000000-0000-4000-8000-000000000000" } }, NOW)).toMatchObject({ kind: "decide" });
  });
});

describe("RuleInputSchema", () => {
  const valid = { name: "Known users", scope: { kind: "group" }, conditions: [{ kind: "trust_at_least", rank: "known_user" }], outcome: { kind: "approve" } };
  const error = (input: unknown) => {
    const result = RuleInputSchema.safeParse(input);
    return result.success ? null : result.error.issues[0]!.message;
  };

  it("takes a rule that can hold", () => {
    expect(error(valid)).toBeNull();
  });

  it("refuses rules that can never hold, with a clear message", () => {
    expect(error({ ...valid, conditions: [{ kind: "account_older_than", days: -1 }] })).toBe("An account cannot be younger than 0 days.");
    expect(error({ ...valid, conditions: [{ kind: "bio_contains", words: [] }] })).toBe("Give at least one word.");
    expect(error({ ...valid, conditions: [{ kind: "bio_lacks", words: ["  "] }] })).not.toBeNull();
    expect(error({ ...valid, conditions: [{ kind: "in_groups", groupIds: ["usr_00000000-0000-4000-8000-000000000001"] }] })).toBe("A group id looks like grp_ followed by 36 letters, digits and dashes.");
    expect(error({ ...valid, conditions: [] })).toBe("A rule needs at least one condition.");
    expect(error({ ...valid, name: "  " })).toBe("A rule needs a name.");
    expect(error({ ...valid, outcome: { kind: "reject", message: "" } })).toBe("A rejection needs the message the applicant reads.");
    expect(error({ ...valid, conditions: [{ kind: "trust_at_least", rank: "legend" }] })).toBe("Choose a trust rank VRChat gives.");
  });
});
