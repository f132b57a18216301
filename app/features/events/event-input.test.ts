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
      applicationRequired: false,
      featured: false,
      applicationDeadline: undefined,
      maxAttendees: undefined,
      applicationInstructions: undefined,
    });
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
