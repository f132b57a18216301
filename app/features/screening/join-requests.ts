/** What staff read of their decisions on join requests, in the Sanctum and from its flows. */

export interface JoinRequestOutcome {
  /** Decided now: answered in VRChat (or through their application). */
  decided: number;
  /** Of those, decided through the person's open application. */
  throughApplication: number;
  /** Decided already, or no longer waiting in VRChat: left as they were. */
  unchanged: number;
  /** Their application needs a proven VRChat account before it is approved: left waiting. */
  needsProof: number;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export const JOIN_REQUEST_TEXTS = {
  notRead: "Dwell does not read the group's join requests on this site (VRCHAT_READ_JOIN_REQUESTS is false): the list stays as it was last read.",
  noActions: "Dwell does not act in VRChat on this site (VRCHAT_MEMBERSHIP_ACTIONS is off): answer join requests in VRChat.",
  nothing: "Nothing was changed: these join requests were decided already, or are no longer waiting in VRChat.",
  needsProof: "Nothing was changed: their application can be approved only once they have proven their VRChat account.",
  done: (outcome: JoinRequestOutcome) =>
    [
      `${count(outcome.decided, "join request", "join requests")} answered in VRChat.`,
      outcome.throughApplication > 0 ? `${count(outcome.throughApplication, "was", "were")} decided with the application they sent on the site.` : "",
      outcome.unchanged > 0 ? `${count(outcome.unchanged, "was", "were")} decided already or no longer waiting.` : "",
      outcome.needsProof > 0 ? `${count(outcome.needsProof, "waits", "wait")} for a proven VRChat account.` : "",
    ]
      .filter(Boolean)
      .join(" "),
};

