import { describe, expect, it } from "vitest";
import { parsePublicationInput, titleTooLongForVRChat } from "./vrchat-publication";

const form = (pairs: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of pairs) data.append(name, value);
  return data;
};

const ticked: [string, string][] = [
  ["publishToVRChat", "on"],
  ["vrchatCategory", "dance"],
  ["vrchatAccess", "group"],
  ["vrchatLanguage", "eng"],
  ["vrchatLanguage", ""],
  ["vrchatLanguage", "eng"],
  ["vrchatPlatform", "android"],
];

describe("'Publish to VRChat' on the event form", () => {
  it("is nothing while unticked, whatever else was sent", () => {
    expect(parsePublicationInput(form(ticked.slice(1)))).toEqual({ ok: true, choice: null });
  });

  it("reads the choices, each language once, empty selects ignored", () => {
    expect(parsePublicationInput(form(ticked))).toEqual({
      ok: true,
      choice: { category: "dance", accessType: "group", languages: ["eng"], platforms: ["android"], notify: false },
    });
    expect(parsePublicationInput(form([...ticked, ["vrchatNotify", "on"]]))).toMatchObject({ choice: { notify: true } });
  });

  it("names the field and says what is wrong", () => {
    expect(parsePublicationInput(form(ticked.filter(([name]) => name !== "vrchatPlatform")))).toEqual({
      ok: false,
      field: "vrchatPlatform",
      error: "Choose at least one platform for VRChat",
    });
    const four = [...ticked, ["vrchatLanguage", "deu"], ["vrchatLanguage", "fra"], ["vrchatLanguage", "jpn"]] as [string, string][];
    expect(parsePublicationInput(form(four))).toEqual({ ok: false, field: "vrchatLanguage", error: "VRChat takes at most 3 languages" });
    expect(parsePublicationInput(form(ticked.map(([name, value]) => [name, name === "vrchatAccess" ? "friends" : value])))).toMatchObject({
      ok: false,
      field: "vrchatAccess",
    });
    expect(parsePublicationInput(form(ticked.map(([name, value]) => [name, name === "vrchatCategory" ? "sleeping" : value])))).toMatchObject({
      ok: false,
      field: "vrchatCategory",
      error: "Choose a VRChat category",
    });
  });

  it("counts a title's characters as VRChat does, not its bytes", () => {
    expect(titleTooLongForVRChat("🏮".repeat(64))).toBeNull();
    expect(titleTooLongForVRChat("🏮".repeat(65))).toMatch(/this one has 65\./);
  });
});
