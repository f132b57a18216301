/**
 * The VRChat API, played on loopback: Basic-auth login with a TOTP second factor and cookies, and
 * the group endpoints the site reads. Like VRChat, it answers 401 to calls without a valid session.
 * Failures can be switched on: every call down (503), rate limited (429 with Retry-After), answering
 * 200 with an HTML page (garbage) or with JSON of the wrong shape, nothing listening on the port
 * (refused), the next N calls failing, sessions expired, or answers slowed down.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Secret, TOTP } from "otpauth";
import { portSwitch } from "./fake-server.ts";

export const FAKE_GROUP_ID = "grp_5f3c9a1e-2b4d-4c6e-8f70-1a2b3c4d5e6f";
export const FAKE_USERNAME = "dwell-bot@example.org";
export const FAKE_PASSWORD = "p@ss word:with&symbols";
/** A base32 secret, as VRChat shows it when an authenticator is set up. */
export const FAKE_TOTP_SECRET = new Secret({ size: 20 }).base32;

/** The server's VRChat settings pointing at a fake. */
export function fakeVRChatEnv(fake: { url: string }): Record<string, string> {
  return {
    VRCHAT_API_URL: fake.url,
    VRCHAT_GROUP_ID: FAKE_GROUP_ID,
    VRCHAT_USERNAME: FAKE_USERNAME,
    VRCHAT_PASSWORD: FAKE_PASSWORD,
    VRCHAT_TOTP_SECRET: FAKE_TOTP_SECRET,
    VRCHAT_CONTACT: "admins@dwell.example",
  };
}

/** A client's account settings for a fake (the client's own options, without its store). */
export function fakeVRChatAccount(fake: { url: string }) {
  return {
    apiUrl: fake.url,
    username: FAKE_USERNAME,
    password: FAKE_PASSWORD,
    totpSecret: FAKE_TOTP_SECRET,
    contact: "admins@dwell.example",
  };
}

export interface FakeWorld {
  name?: string;
  authorName?: string;
  capacity?: number;
  recommendedCapacity?: number;
}

export interface FakeInstance {
  location: string;
  /** Group members in it (the group-instances list). */
  memberCount: number;
  /** Everyone in it (the instance endpoint). */
  userCount: number;
  capacity?: number;
  region?: string;
  type?: string;
  name?: string;
  world: FakeWorld;
}

export interface FakeCalendarEvent {
  id: string;
  title: string;
  description?: string;
  imageUrl?: string | null;
  startsAt?: string;
  endsAt?: string;
  interestedUserCount?: number;
  isDraft?: boolean;
}

export interface FakeMember {
  userId: string;
  isRepresenting?: boolean;
  user: {
    displayName?: string;
    username?: string;
    currentAvatarThumbnailImageUrl?: string | null;
    iconUrl?: string | null;
    profilePicOverride?: string | null;
  };
}

export interface FakeGroup {
  name: string;
  memberCount: number;
  onlineMemberCount: number;
  instances: FakeInstance[];
  posts: { id: string; title: string; text: string; imageUrl?: string | null; createdAt: string }[];
  calendar: FakeCalendarEvent[];
  members: FakeMember[];
}

const DAY = 24 * 60 * 60 * 1000;

export function fakeGroup(now = new Date()): FakeGroup {
  const at = (offset: number) => new Date(now.getTime() + offset).toISOString();
  return {
    name: "The Dwellers",
    memberCount: 2451,
    onlineMemberCount: 88,
    instances: [
      {
        location: "wrld_aaaa:111~group(grp_x)",
        memberCount: 5,
        userCount: 9,
        capacity: 40,
        region: "use",
        type: "group",
        name: "111",
        world: { name: "Hearth Hall", authorName: "Ember", capacity: 40, recommendedCapacity: 20 },
      },
      {
        location: "wrld_bbbb:222",
        memberCount: 2,
        userCount: 4,
        region: "jp",
        type: "public",
        name: "222",
        world: { name: "Tide Pools", authorName: "Wave" },
      },
    ],
    posts: [
      { id: "not_1", title: "Fresh post", text: "Hello from VRChat", imageUrl: null, createdAt: at(-3 * DAY) },
      { id: "not_2", title: "Old post", text: "From long ago", imageUrl: null, createdAt: at(-90 * DAY) },
    ],
    calendar: [
      {
        id: "cal_11111111-1111-4111-8111-111111111111",
        title: "Upcoming gathering",
        description: "Soon",
        startsAt: at(2 * DAY),
        endsAt: at(2 * DAY + 2 * 60 * 60 * 1000),
        interestedUserCount: 12,
      },
      {
        id: "cal_22222222-2222-4222-8222-222222222222",
        title: "Last week's dance",
        description: "Done",
        startsAt: at(-7 * DAY),
        endsAt: at(-7 * DAY + 2 * 60 * 60 * 1000),
        interestedUserCount: 1,
      },
      {
        id: "cal_33333333-3333-4333-8333-333333333333",
        title: "Long ago",
        description: "Ancient",
        startsAt: at(-60 * DAY),
        endsAt: at(-60 * DAY + 60 * 60 * 1000),
      },
    ],
    members: [
      { userId: "usr_1", isRepresenting: true, user: { displayName: "Captain", currentAvatarThumbnailImageUrl: null, iconUrl: null } },
      { userId: "usr_2", isRepresenting: false, user: { displayName: "Deckhand" } },
    ],
  };
}

export type FakeVRChatMode = "normal" | "down" | "rate-limited" | "garbage" | "wrong-shape" | "refused";

export interface FakeVRChat {
  url: string;
  group: FakeGroup;
  /** Requests per endpoint: login, totp, group, groupInstances, instance, posts, calendar, members, unknown. */
  calls: Record<string, number>;
  userAgents: Set<string>;
  /** Every code the TOTP endpoint received. */
  totpCodes: string[];
  /** Resolves once the mode is in effect (for "refused", once the port is closed or open again). */
  setMode(mode: FakeVRChatMode, options?: { retryAfterSeconds?: number }): Promise<void>;
  /** The next `times` data calls answer `status` (429 carries Retry-After). */
  failNext(times: number, status: number, retryAfterSeconds?: number): void;
  /** Forgets every session: the next data call answers 401. */
  expireSessions(): void;
  /** Delays every data answer (to hold a refresh open while others arrive). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

interface SessionState {
  verified: boolean;
}

export async function startFakeVRChat(options: { group?: FakeGroup; requireTotp?: boolean } = {}): Promise<FakeVRChat> {
  const group = options.group ?? fakeGroup();
  const requireTotp = options.requireTotp ?? true;
  const sessions = new Map<string, SessionState>();
  const twoFactorCookies = new Set<string>();
  const calls: Record<string, number> = {};
  const userAgents = new Set<string>();
  const totpCodes: string[] = [];
  let mode: FakeVRChatMode = "normal";
  let retryAfterSeconds = 1;
  let failures: { times: number; status: number; retryAfter: number } = { times: 0, status: 500, retryAfter: 0 };
  let delayMs = 0;
  const totp = new TOTP({ secret: Secret.fromBase32(FAKE_TOTP_SECRET), digits: 6, period: 30, algorithm: "SHA1" });

  const count = (key: string) => (calls[key] = (calls[key] ?? 0) + 1);

  function cookies(req: IncomingMessage): Record<string, string> {
    const jar: Record<string, string> = {};
    for (const part of (req.headers.cookie ?? "").split(";")) {
      const [name, ...rest] = part.trim().split("=");
      if (name) jar[name] = rest.join("=");
    }
    return jar;
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}) {
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  }

  const error = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) =>
    send(res, status, { error: { message, status_code: status } }, headers);

  function login(req: IncomingMessage, res: ServerResponse) {
    count("login");
    const header = req.headers.authorization ?? "";
    const [user, pass] = Buffer.from(header.replace(/^Basic /, ""), "base64").toString().split(":").map(decodeURIComponent);
    if (!header.startsWith("Basic ") || user !== FAKE_USERNAME || pass !== FAKE_PASSWORD) {
      return error(res, 401, "Invalid Username/Email or Password");
    }
    const auth = `authcookie_${randomUUID()}`;
    const known2fa = twoFactorCookies.has(cookies(req).twoFactorAuth ?? "");
    const verified = !requireTotp || known2fa;
    sessions.set(auth, { verified });
    const setCookie = [`auth=${auth}; Max-Age=604800; Path=/; HttpOnly`];
    if (!verified) return send(res, 200, { requiresTwoFactorAuth: ["totp", "otp"] }, { "Set-Cookie": setCookie });
    return send(res, 200, { id: "usr_bot", displayName: "Dwell Bot" }, { "Set-Cookie": setCookie });
  }

  async function verifyTotp(req: IncomingMessage, res: ServerResponse, body: string) {
    count("totp");
    const session = sessions.get(cookies(req).auth ?? "");
    if (!session) return error(res, 401, "Missing Credentials");
    const { code } = JSON.parse(body || "{}") as { code?: string };
    totpCodes.push(String(code));
    if (totp.validate({ token: String(code), window: 1 }) === null) return send(res, 400, { verified: false });
    session.verified = true;
    const twoFactor = randomUUID();
    twoFactorCookies.add(twoFactor);
    return send(res, 200, { verified: true }, { "Set-Cookie": [`twoFactorAuth=${twoFactor}; Max-Age=2592000; Path=/; HttpOnly`] });
  }

  function page<T>(items: T[], url: URL): T[] {
    const n = Number(url.searchParams.get("n") ?? 60);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    return items.slice(offset, offset + n);
  }

  function data(req: IncomingMessage, res: ServerResponse, url: URL) {
    const path = url.pathname.replace(/^\/api\/1/, "");
    const g = `/groups/${FAKE_GROUP_ID}`;
    const routes: [RegExp | string, string, () => unknown][] = [
      [g, "group", () => ({ id: FAKE_GROUP_ID, name: group.name, memberCount: group.memberCount, onlineMemberCount: group.onlineMemberCount })],
      [`${g}/instances`, "groupInstances", () => group.instances.map((i) => ({ instanceId: i.location.split(":")[1], location: i.location, memberCount: i.memberCount, world: { id: "wrld", ...i.world } }))],
      [`${g}/posts`, "posts", () => ({ posts: page(group.posts, url), total: group.posts.length })],
      [`/calendar/${FAKE_GROUP_ID}`, "calendar", () => {
        const results = page(group.calendar, url);
        const offset = Number(url.searchParams.get("offset") ?? 0);
        return { results, totalCount: group.calendar.length, hasNext: offset + results.length < group.calendar.length };
      }],
      [`${g}/members`, "members", () => page(group.members, url)],
    ];
    const instanceMatch = /^\/instances\/(.+)$/.exec(path);
    let handler: [string, () => unknown] | null = null;
    for (const [route, key, answer] of routes) if (route === path) handler = [key, answer];
    if (instanceMatch) {
      const location = decodeURIComponent(instanceMatch[1]!);
      handler = [
        "instance",
        () => {
          const instance = group.instances.find((i) => i.location === location);
          if (!instance) return null;
          return { id: location, location, name: instance.name, userCount: instance.userCount, capacity: instance.capacity, region: instance.region, type: instance.type, world: instance.world };
        },
      ];
    }
    if (!handler) {
      count("unknown");
      return error(res, 404, `no route ${path}`);
    }
    count(handler[0]);
    const session = sessions.get(cookies(req).auth ?? "");
    if (!session?.verified) return error(res, 401, "Missing Credentials");
    if (mode === "down") return error(res, 503, "Service Unavailable");
    if (mode === "rate-limited") return error(res, 429, "Too Many Requests", { "Retry-After": String(retryAfterSeconds) });
    if (mode === "garbage") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return void res.end("<html><body>Welcome to the hotel Wi-Fi</body></html>");
    }
    if (mode === "wrong-shape") return send(res, 200, { data: null, message: "OK" });
    if (failures.times > 0) {
      failures.times--;
      return error(res, failures.status, "Injected failure", failures.retryAfter ? { "Retry-After": String(failures.retryAfter) } : {});
    }
    const body = handler[1]();
    if (body === null) return error(res, 404, "Instance not found");
    const answer = () => {
      if (!res.destroyed) send(res, 200, body);
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      userAgents.add(req.headers["user-agent"] ?? "");
      const url = new URL(req.url ?? "/", "http://fake");
      const path = url.pathname.replace(/^\/api\/1/, "");
      if (req.method === "GET" && path === "/auth/user") return login(req, res);
      if (req.method === "POST" && path === "/auth/twofactorauth/totp/verify") {
        return void verifyTotp(req, res, Buffer.concat(chunks).toString());
      }
      if (req.method === "GET") return data(req, res, url);
      return error(res, 405, "Method not allowed");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const listening = portSwitch(server, port, () => server.closeAllConnections());

  return {
    url: `http://127.0.0.1:${port}/api/1`,
    group,
    calls,
    userAgents,
    totpCodes,
    async setMode(next, options = {}) {
      mode = next;
      retryAfterSeconds = options.retryAfterSeconds ?? retryAfterSeconds;
      await listening.listen(next !== "refused");
    },
    failNext(times, status, retryAfter = 0) {
      failures = { times, status, retryAfter };
    },
    expireSessions() {
      sessions.clear();
    },
    setDelay(ms) {
      delayMs = ms;
    },
    close: () => listening.listen(false),
  };
}
