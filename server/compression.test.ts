import { gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { acceptsGzip, compression } from "./compression";

const PAGE = `<!DOCTYPE html><main>${"<p>The Dwellers gather at the threshold.</p>".repeat(1_000)}</main>`;

function site() {
  const app = new Hono();
  const served = { assets: 0 };
  app.use(compression());
  app.get("/", (c) => c.html(PAGE));
  app.get("/small", (c) => c.html("<p>hi</p>"));
  app.get("/picture", (c) => c.body(new Uint8Array(4_000), 200, { "Content-Type": "image/png" }));
  app.get("/assets/entry-abc123.js", (c) => {
    served.assets += 1;
    return c.body(`export const n = ${served.assets};\n${"// the site's code\n".repeat(500)}`, 200, { "Content-Type": "text/javascript", "Content-Length": "99999" });
  });
  app.get("/admin/people/x", (c) => c.html(PAGE));
  return { app, served };
}

const gzipHeaders = { "Accept-Encoding": "gzip, deflate, br" };

describe("the answers' compression", () => {
  it("gzips a page in one piece, with its true length, for a client that accepts it", async () => {
    const { app } = site();
    const response = await app.request("/", { headers: gzipHeaders });
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
    expect(response.headers.get("Vary")).toBe("Accept-Encoding");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get("Content-Length")).toBe(String(bytes.length));
    expect(bytes.length).toBeLessThan(PAGE.length / 10);
    expect(gunzipSync(bytes).toString()).toBe(PAGE);
  });

  it("answers plainly a client that does not accept gzip, a small answer, a picture and a HEAD request", async () => {
    const { app } = site();
    const plain = await app.request("/");
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    expect(plain.headers.get("Vary")).toBe("Accept-Encoding");
    expect(await plain.text()).toBe(PAGE);
    for (const path of ["/small", "/picture"]) {
      const response = await app.request(path, { headers: gzipHeaders });
      expect(response.headers.get("Content-Encoding")).toBeNull();
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const head = await app.request("/", { method: "HEAD", headers: gzipHeaders });
    expect(head.headers.get("Content-Encoding")).toBeNull();
  });

  it("gzips a file of the build once, and sends the same bytes after", async () => {
    const { app, served } = site();
    const first = await app.request("/assets/entry-abc123.js", { headers: gzipHeaders });
    const second = await app.request("/assets/entry-abc123.js", { headers: gzipHeaders });
    const [a, b] = [Buffer.from(await first.arrayBuffer()), Buffer.from(await second.arrayBuffer())];
    expect(first.headers.get("Content-Length")).toBe(String(a.length));
    expect(gunzipSync(a).toString()).toContain("export const n = 1;");
    expect(b.equals(a)).toBe(true);
    expect(served.assets).toBe(2);
  });

  it("keeps streaming the Sanctum's answers", async () => {
    const { app } = site();
    const response = await app.request("/admin/people/x", { headers: gzipHeaders });
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
    expect(response.headers.get("Content-Length")).toBeNull();
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(PAGE);
  });

  it("reads Accept-Encoding's weights", () => {
    const accepts = (header: string) => acceptsGzip(new Request("http://dwell.test/", { headers: { "Accept-Encoding": header } }));
    expect(["gzip", "br;q=1, gzip;q=0.5", "*", "GZIP", "gzip;q=0", "br", "*;q=0", "identity", ""].map(accepts)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
