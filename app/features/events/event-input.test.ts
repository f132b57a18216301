import { describe, expect, it } from "vitest";
import { EventInputSchema, firstEventInputError } from "./event-input";

const base = {
  title: "Moonrise",
  description: "",
  eventDate: "2026-12-01",
  eventTime: "20:00",
  timezone: "PST",
  worldName: "The Black Cat",
};

describe("the event form's rules", () => {
  it("accepts the required fields and defaults the rest", () => {
    expect(EventInputSchema.parse(base)).toEqual({
      ...base,
      endDate: "2026-12-01",
      endTime: "22:00",
      worldId: null,
      applicationRequired: false,
      requiresProof: false,
      featured: false,
      discordEvent: false,
      applicationDeadline: undefined,
      maxAttendees: undefined,
      applicationInstructions: undefined,
      waitlistPromotion: "pending",
      instanceLeadMinutes: 15,
      instanceRegion: "us",
      instanceAccess: "members",
    });
  });

  it("requires a proven VRChat account only of an event that takes applications", () => {
    expect(EventInputSchema.parse({ ...base, applicationRequired: "on", requiresProof: "on" }).requiresProof).toBe(true);
    expect(EventInputSchema.parse({ ...base, requiresProof: "on" }).requiresProof).toBe(false);
    expect(EventInputSchema.parse({ ...base, applicationRequired: "on" }).requiresProof).toBe(false);
  });

  it.each([
    ["title", { title: "   " }, "Title is required"],
    ["worldName", { worldName: "" }, "World Name is required"],
    ["eventDate", { eventDate: "" }, "Event Date is required"],
    ["eventTime", { eventTime: "25:00" }, "Event Time is required"],
    ["timezone", { timezone: "CET" }, "Choose a timezone"],
  ])("names the missing or wrong %s", (field, change, message) => {
    const result = EventInputSchema.safeParse({ ...base, ...change });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstEventInputError(result.error)).toEqual({ field, error: message });
  });

  it("ends two hours after the start unless told, on the event zone's clocks", () => {
    // 23:30 PST: two hours later is the next day's 01:30 there.
    expect(EventInputSchema.parse({ ...base, eventTime: "23:30" })).toMatchObject({ endDate: "2026-12-02", endTime: "01:30" });
    // The night the clocks go back (1 Nov 2026, Pacific): 00:30 + 2 h is 01:30 the second time round.
    expect(EventInputSchema.parse({ ...base, eventDate: "2026-11-01", eventTime: "00:30" })).toMatchObject({ endDate: "2026-11-01", endTime: "01:30" });
    expect(EventInputSchema.parse({ ...base, ends: "2026-12-02T02:15" })).toMatchObject({ endDate: "2026-12-02", endTime: "02:15" });
  });

  it.each([
    ["before the start", "2026-12-01T19:00", "Ends must be after the start"],
    ["at the start", "2026-12-01T20:00", "Ends must be after the start"],
    ["a week and more later", "2026-12-09T20:00", "An event can last at most 7 days"],
    ["not a time", "tomorrow", "Ends must be a date and a time"],
  ])("refuses an end %s", (_, ends, error) => {
    const result = EventInputSchema.safeParse({ ...base, ends });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstEventInputError(result.error)).toEqual({ field: "ends", error });
  });

  it("reads when the instance opens, where, and for whom", () => {
    expect(EventInputSchema.parse({ ...base, instanceLead: "never", instanceRegion: "jp", instanceAccess: "public" })).toMatchObject({ instanceLeadMinutes: null, instanceRegion: "jp", instanceAccess: "public" });
    expect(EventInputSchema.parse({ ...base, instanceLead: "0" }).instanceLeadMinutes).toBe(0);
    for (const [field, value] of [["instanceLead", "7"], ["instanceLead", "soon"], ["instanceRegion", "usx"], ["instanceAccess", "plus"]] as const) {
      const result = EventInputSchema.safeParse({ ...base, [field]: value });
      expect(result.success, `${field}=${value}`).toBe(false);
      if (!result.success) expect(firstEventInputError(result.error).field).toBe(field);
    }
  });

  it("reads a world from its link or its id, and then needs no name", () => {
    const id = "wrld_4432ea9b-729c-46e3-8eaf-846aa0a37fdd";
    for (const worldLink of [id, `https://vrchat.com/home/world/${id}`, `https://vrchat.com/home/world/${id}/info`, `https://vrchat.com/home/launch?worldId=${id}&instanceId=1234`, ` ${id.toUpperCase()} `]) {
      expect(EventInputSchema.parse({ ...base, worldName: "", worldLink }).worldId).toBe(id);
    }
    for (const worldLink of ["https://example.com/home/world/" + id, "http://vrchat.com/home/world/" + id, "wrld_nope", "usr_4432ea9b-729c-46e3-8eaf-846aa0a37fdd", "https://vrchat.com/home/user/" + id]) {
      const result = EventInputSchema.safeParse({ ...base, worldLink });
      expect(result.success, worldLink).toBe(false);
      if (!result.success) expect(firstEventInputError(result.error).field).toBe("worldLink");
    }
  });

  it("keeps the application settings only when applications are required", () => {
    const settings = { applicationDeadline: "2026-11-28", maxAttendees: "12", applicationInstructions: "Be kind" };
    expect(EventInputSchema.parse({ ...base, ...settings, applicationRequired: "on" })).toMatchObject({
      applicationRequired: true,
      applicationDeadline: "2026-11-28",
      maxAttendees: 12,
      applicationInstructions: "Be kind",
    });
    expect(EventInputSchema.parse({ ...base, ...settings })).toMatchObject({
      applicationRequired: false,
      applicationDeadline: undefined,
      maxAttendees: undefined,
      applicationInstructions: undefined,
    });
  });

  it("reads an empty maximum as unlimited and refuses fewer than one", () => {
    expect(EventInputSchema.parse({ ...base, applicationRequired: "on", maxAttendees: "" }).maxAttendees).toBeUndefined();
    for (const maxAttendees of ["0", "-3", "2.5", "many"]) {
      const result = EventInputSchema.safeParse({ ...base, applicationRequired: "on", maxAttendees });
      expect(result.success).toBe(false);
    }
  });
});
