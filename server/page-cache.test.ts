import { describe, expect, it } from "vitest";
import { createPageCache, type PageHoles } from "./page-cache";

const EVENT = "/events/0b8e6f1a-9c2d-4e5f-8a7b-1c2d3e4f5a6b";

/** A stand-in for React Router: renders a page with the nonce it is given, counting renders. */
function renderer(options: { status?: number; headers?: Record<string, string>; delayMs?: number } = {}) {
  const state = { renders: 0 };
  const render = (nonce: string) => async () => {
    state.renders++;
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
    return new Response(`<script nonce="${nonce}">1</script><p>render ${state.renders}</p><script nonce="${nonce}">2</script>`, {
      status: options.status ?? 200,
      headers: { "Content-Type": "text/html; charset=utf-8", ...options.headers },
    });
  };
  return { state, render };
}

const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://dwell.test${path}`, { headers });

describe("the public page cache", () => {
  it("renders once for a crowd, and gives each response its own nonce", async () => {
    const serve = createPageCache({ ttlMs: 1_000 });
    const { state, render } = renderer({ delayMs: 20 });
    const nonces = Array.from({ length: 50 }, (_, i) => `nonce-${i}-abcdefghij`);
    const bodies = await Promise.all(nonces.map((nonce) => serve(get("/events"), nonce, render(nonce)).then((r) => r.text())));
    expect(state.renders).toBe(1);
    bodies.forEach((body, i) => {
      expect(body).toBe(`<script nonce="${nonces[i]}">1</script><p>render 1</p><script nonce="${nonces[i]}">2</script>`);
    });
  });

  it("keys pages by path and time zone, and renders again once the copy is too old", async () => {
    const serve = createPageCache({ ttlMs: 50 });
    const { state, render } = renderer();
    await serve(get("/"), "n1", render("n1"));
    await serve(get("/"), "n2", render("n2"));
    await serve(get(EVENT), "n3", render("n3"));
    await serve(get("/", { Cookie: "tz=Asia%2FTokyo" }), "n4", render("n4"));
    await serve(get("/", { Cookie: "tz=Asia%2FTokyo" }), "n5", render("n5"));
    expect(state.renders).toBe(3);
    // The news and an announcement's page are the same for every visitor too.
    await serve(get("/news"), "n7", render("n7"));
    await serve(get("/news"), "n8", render("n8"));
    await serve(get("/news/5c1e2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"), "n9", render("n9"));
    await serve(get("/news/5c1e2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"), "n10", render("n10"));
    expect(state.renders).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await (await serve(get("/"), "n6", render("n6"))).text()).toContain("render 6");
  });

  it("keeps each language's copy apart, and shares a page with a visitor's choice of language", async () => {
    const serve = createPageCache({ ttlMs: 60_000 });
    const { state, render } = renderer();
    await serve(get("/"), "n1", render("n1"), "en");
    await serve(get("/"), "n2", render("n2"), "ja");
    expect(await (await serve(get("/"), "n3", render("n3"), "en")).text()).toContain("render 1");
    expect(await (await serve(get("/", { Cookie: "lang=ja" }), "n4", render("n4"), "ja")).text()).toContain("render 2");
    expect(await (await serve(get("/", { Cookie: "lang=ja; tz=Asia%2FTokyo" }), "n5", render("n5"), "ja")).text()).toContain("render 3");
    expect(await (await serve(get("/", { Cookie: "tz=Asia%2FTokyo; lang=ja" }), "n6", render("n6"), "ja")).text()).toContain("render 3");
    expect(state.renders).toBe(3);
  });

  it("never shares a signed-in page, a query, a form post, another page or an answer that is not a plain 200", async () => {
    const serve = createPageCache({ ttlMs: 60_000 });
    const twice = async (request: () => Request, options?: Parameters<typeof renderer>[0]) => {
      const { state, render } = renderer(options);
      await serve(request(), "a", render("a"));
      await serve(request(), "b", render("b"));
      return state.renders;
    };
    expect(await twice(() => get("/events", { Cookie: "tz=UTC; dwell.session_token=abc" }))).toBe(2);
    expect(await twice(() => get("/events?page=2"))).toBe(2);
    expect(await twice(() => get("/news?page=2"))).toBe(2);
    expect(await twice(() => get("/news.atom"))).toBe(2);
    expect(await twice(() => new Request("http://dwell.test/events", { method: "POST" }))).toBe(2);
    expect(await twice(() => get("/apply"))).toBe(2);
    expect(await twice(() => get("/admin"))).toBe(2);
    expect(await twice(() => get(EVENT), { status: 404 })).toBe(2);
    expect(await twice(() => get(EVENT), { headers: { "Set-Cookie": "x=1" } })).toBe(2);
    // Without a nonce (development) or with the cache off, every request renders.
    const { state, render } = renderer();
    await serve(get("/"), undefined, render(""));
    await serve(get("/"), undefined, render(""));
    await createPageCache({ ttlMs: 0 })(get("/"), "z", render("z"));
    expect(state.renders).toBe(3);
  });

  it("keeps a page asked at another address (a forged Host header) apart from everyone else's", async () => {
    const serve = createPageCache({ ttlMs: 1_000 });
    const { state, render } = renderer();
    await serve(new Request("http://evil.example/events"), "n1", render("n1"));
    const honest = await serve(get("/events"), "n2", render("n2")).then((r) => r.text());
    expect(state.renders).toBe(2);
    expect(honest).toContain("render 2");
  });

  it("lets requests that waited on a failed render render for themselves", async () => {
    const serve = createPageCache({ ttlMs: 1_000 });
    let calls = 0;
    const failing = async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error("the database went away");
    };
    const { render } = renderer();
    const [first, second] = await Promise.allSettled([serve(get("/"), "a", failing), serve(get("/"), "b", render("b"))]);
    expect(first.status).toBe("rejected");
    expect(second.status === "fulfilled" && (await second.value.text())).toContain('nonce="b"');
    expect(calls).toBe(1);
  });

  describe("an application form, whose guards differ by visitor", () => {
    const MARKS = ["mark-started-Zq9", "mark-challenge-Zq9"];
    /** A form rendered with the marks when shared, or with a visitor's own guards when not. */
    function formRenderer(options: { status?: number; delayMs?: number } = {}) {
      const state = { renders: 0, shared: 0 };
      const render = (nonce: string, own: readonly string[]) => async (shared: boolean) => {
        state.renders++;
        if (shared) state.shared++;
        await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
        const [started, challenge] = shared ? MARKS : own;
        const data = JSON.stringify({ formStarted: started, crowdChallenge: challenge });
        return new Response(
          `<form data-crowd-challenge="${challenge}"><input name="form_started" value="${started}"></form><script nonce="${nonce}">window.data = ${JSON.stringify(data)}</script>`,
          { status: options.status ?? 200, headers: { "Content-Type": "text/html; charset=utf-8" } },
        );
      };
      return { state, render };
    }
    const holesFor = (values: readonly string[]): PageHoles => ({ marks: MARKS, fill: async () => values });

    it("renders once for a crowd, and gives each visitor their own guards in every place the page carries them", async () => {
      const serve = createPageCache({ ttlMs: 1_000 });
      const { state, render } = formRenderer({ delayMs: 20 });
      const visitors = Array.from({ length: 20 }, (_, i) => ({ nonce: `nonce-${i}-abcdefgh`, guards: [`1764600000${i}.sig-${i}_x`, `eyJjaGFsbGVuZ2Ui${i}`] }));
      const bodies = await Promise.all(
        visitors.map(({ nonce, guards }) => serve(get("/apply"), nonce, render(nonce, guards), "en", holesFor(guards)).then((r) => r.text())),
      );
      expect(state).toEqual({ renders: 1, shared: 1 });
      bodies.forEach((body, i) => {
        const [started, challenge] = visitors[i]!.guards;
        expect(body).toContain(`data-crowd-challenge="${challenge}"`);
        expect(body).toContain(`value="${started}"`);
        expect(body).toContain(`\\"formStarted\\":\\"${started}\\"`);
        expect(body).toContain(`nonce="${visitors[i]!.nonce}"`);
        for (const mark of MARKS) expect(body).not.toContain(mark);
      });
      // An event's form is shared the same way; a form without holes is not shared at all.
      await serve(get(`${EVENT}/apply`), "n1", render("n1", ["1.a", "b"]), "en", holesFor(["1.a", "b"]));
      await serve(get(`${EVENT}/apply`), "n2", render("n2", ["2.a", "c"]), "en", holesFor(["2.a", "c"]));
      expect(state.shared).toBe(2);
      await serve(get("/apply"), "n3", render("n3", ["3.a", "d"]));
      expect(state.renders - state.shared).toBe(1);
    });

    it("renders for the visitor when a value could not be written as it is, or the shared render is not shareable", async () => {
      const serve = createPageCache({ ttlMs: 1_000 });
      const { state, render } = formRenderer();
      const odd = ['1.a"><script>', "b"];
      const body = await serve(get("/apply"), "n1", render("n1", odd), "en", holesFor(odd)).then((r) => r.text());
      expect(state).toEqual({ renders: 2, shared: 1 });
      expect(body).not.toContain("mark-");

      const failing = formRenderer({ status: 503 });
      const own = ["5.own", "own-challenge"];
      const refused = await serve(get(`${EVENT}/apply`), "n2", failing.render("n2", own), "en", holesFor(own));
      expect(refused.status).toBe(503);
      const text = await refused.text();
      expect(text).toContain('value="5.own"');
      expect(text).not.toContain("mark-");
    });
  });
});
