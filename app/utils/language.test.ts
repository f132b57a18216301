import { describe, expect, it } from "vitest";
import { acceptedLanguages, chooseLanguage, readLanguageCookie } from "./language";

describe("acceptedLanguages", () => {
  it("orders a browser's languages by weight, as primary tags", () => {
    expect(acceptedLanguages("ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7")).toEqual(["ja", "en"]);
    expect(acceptedLanguages("en;q=0.5, ja")).toEqual(["ja", "en"]);
    expect(acceptedLanguages("de;q=0.8, fr;q=0.8")).toEqual(["de", "fr"]);
  });

  it("leaves out refused, wild and malformed entries", () => {
    expect(acceptedLanguages("*;q=0")).toEqual([]);
    expect(acceptedLanguages("ja;q=0, en")).toEqual(["en"]);
    expect(acceptedLanguages("*, ja;q=0.1")).toEqual(["ja"]);
    expect(acceptedLanguages("ja;q=abc, en;q=2, fr;q=-1, <script>, de")).toEqual(["de"]);
    expect(acceptedLanguages("")).toEqual([]);
    expect(acceptedLanguages(null)).toEqual([]);
  });

  it("reads no further than a browser's list could be", () => {
    expect(acceptedLanguages(`${"x".repeat(2_000)},ja`)).toEqual([]);
    expect(acceptedLanguages(`en,${"fr;q=0.1,".repeat(300)}ja;q=0.9`)).toEqual(["en", "fr"]);
  });
});

describe("chooseLanguage", () => {
  const offered = ["en", "ja"];
  it("takes the address's language, then the visitor's choice, then the browser's, then the default", () => {
    expect(chooseLanguage(offered, { query: "ja", cookie: "en", acceptLanguage: "en" })).toBe("ja");
    expect(chooseLanguage(offered, { cookie: "ja", acceptLanguage: "en" })).toBe("ja");
    expect(chooseLanguage(offered, { acceptLanguage: "fr, ja;q=0.5" })).toBe("ja");
    expect(chooseLanguage(offered, {})).toBe("en");
    expect(chooseLanguage(["ja", "en"], { acceptLanguage: "fr" })).toBe("ja");
  });

  it("passes over what the site does not offer", () => {
    expect(chooseLanguage(offered, { query: "xx", cookie: "de", acceptLanguage: "ja" })).toBe("ja");
    expect(chooseLanguage(offered, { query: "JA" })).toBe("ja");
    expect(chooseLanguage(["en"], { query: "ja", cookie: "ja", acceptLanguage: "ja" })).toBe("en");
  });
});

describe("readLanguageCookie", () => {
  it("finds the choice among the cookies", () => {
    expect(readLanguageCookie("tz=Europe%2FBerlin; lang=ja; other=1")).toBe("ja");
    expect(readLanguageCookie("tz=UTC")).toBeNull();
    expect(readLanguageCookie(null)).toBeNull();
    expect(readLanguageCookie("lang=")).toBeNull();
  });
});
