// A signed-in browser of the dashboard, driven over HTTP through the Worker's fetch, with its
// cookie, its CSRF token and a client IP of its own; and the outbox its mail lands in.
import { expect } from "vitest";
import { operator } from "./api";
import { importData, uniqueId } from "./fixtures";
import { type Fetcher, request, serviceFetch } from "./worker";

export const ORIGIN = "http://api.test";

let ipCounter = 0;
/** A client IP no other test uses, so sign-in rate limits never cross tests. */
export function uniqueIp(): string {
  ipCounter += 1;
  const n = (Date.now() % 250) * 1000 + ipCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export interface Mail {
  id: number;
  to: string;
  subject: string;
  text: string;
}

/** The outbox's mail to `to` (newest last). */
export async function outboxFor(to: string): Promise<Mail[]> {
  const res = await operator("GET", `/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Mail[] }).data;
}

/** Waits for mail to `to` newer than `afterId` (mail leaves after the response). */
export async function nextMail(to: string, afterId = 0): Promise<Mail> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const mail = (await outboxFor(to)).filter((m) => m.id > afterId);
    const last = mail.at(-1);
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no mail to ${to}`);
}

/** The newest mail id to `to` (0 when none): mail after it is new. */
export async function lastMailId(to: string): Promise<number> {
  return (await outboxFor(to)).at(-1)?.id ?? 0;
}

/** The sign-in links of a mail, in order. */
export function linksIn(mail: Mail): string[] {
  return [...mail.text.matchAll(/https?:\/\/\S+\/dashboard\/sign-in\/confirm\?token=[\w-]+/g)].map(
    (m) => m[0],
  );
}

export function tokenOf(link: string): string {
  return new URL(link).searchParams.get("token") ?? "";
}

/** A form post as a browser sends it: URL-encoded, with this site's Origin. */
export function formInit(
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
): RequestInit {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  }
  return {
    method: "POST",
    headers: {
      origin: ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: body.toString(),
    redirect: "manual",
  };
}

/** The session cookie a response sets, as a `Cookie` header value. */
export function sessionCookieOf(res: Response): string | null {
  const header = res.headers.getSetCookie().find((c) => c.startsWith("__Host-session="));
  if (!header) return null;
  const value = header.split(";")[0] ?? "";
  return value === "__Host-session=" ? null : value;
}

/**
 * A signed-in dashboard user: GETs and form posts with its cookie and CSRF token, to the service
 * (or to `fetcher`, another app of the service's code sharing its storage).
 */
export class DashboardClient {
  constructor(
    readonly email: string,
    public cookie: string,
    readonly ip: string,
    readonly fetcher: Fetcher = serviceFetch,
  ) {}

  /** The same session, talking to another app. */
  through(fetcher: Fetcher): DashboardClient {
    return new DashboardClient(this.email, this.cookie, this.ip, fetcher);
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return request(
      path,
      {
        headers: { cookie: this.cookie, "cf-connecting-ip": this.ip, ...headers },
        redirect: "manual",
      },
      this.fetcher,
    );
  }

  /** The CSRF token on a page of this session. */
  async csrf(path = "/dashboard/sandbox/keys"): Promise<string> {
    const html = await (await this.get(path)).text();
    const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    if (!token) throw new Error(`no CSRF token on ${path}`);
    return token;
  }

  /** Posts a form with this session's cookie and (unless given) its CSRF token. */
  async post(
    path: string,
    fields: Record<string, string | string[]> = {},
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const csrf = fields.csrf ?? (await this.csrf());
    const init = formInit(
      { ...fields, csrf },
      { cookie: this.cookie, "cf-connecting-ip": this.ip, ...headers },
    );
    return request(path, init, this.fetcher);
  }

  /** Posts a multipart form (with files) as a browser does, with this session's CSRF token. */
  async postMultipart(
    path: string,
    fields: Record<string, string> = {},
    files: Record<string, File> = {},
  ): Promise<Response> {
    const body = new FormData();
    body.append("csrf", fields.csrf ?? (await this.csrf()));
    for (const [name, value] of Object.entries(fields))
      if (name !== "csrf") body.append(name, value);
    for (const [name, file] of Object.entries(files)) body.append(name, file);
    return request(path, {
      method: "POST",
      headers: { origin: ORIGIN, cookie: this.cookie, "cf-connecting-ip": this.ip },
      body,
      redirect: "manual",
    });
  }
}

/** Asks for a sign-in link for `email` from `ip`; returns the response. */
export function requestSignIn(email: string, ip: string): Promise<Response> {
  return request("/dashboard/sign-in", formInit({ email }, { "cf-connecting-ip": ip }));
}

/** Follows a mailed link: the confirmation page, then its POST. Returns the POST's response. */
export async function confirmLink(link: string, ip: string): Promise<Response> {
  const token = tokenOf(link);
  const page = await request(`/dashboard/sign-in/confirm?token=${token}`, {
    headers: { "cf-connecting-ip": ip },
  });
  expect(page.status).toBe(200);
  return request("/dashboard/sign-in/confirm", formInit({ token }, { "cf-connecting-ip": ip }));
}

/** Signs `email` in through the mailed link, as a browser would. */
export async function signIn(email: string, ip = uniqueIp()): Promise<DashboardClient> {
  const before = await lastMailId(email);
  const asked = await requestSignIn(email, ip);
  expect(asked.status).toBe(200);
  const [link] = linksIn(await nextMail(email, before));
  if (!link) throw new Error("no sign-in link in the mail");
  const res = await confirmLink(link, ip);
  expect(res.status).toBe(303);
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error("no session cookie");
  return new DashboardClient(email, cookie, ip);
}

/** Invites a user through the operator API (the invitation mail is left in the outbox). */
export async function inviteByOperator(
  partnerId: string,
  email: string,
  role: "Admin" | "Developer" = "Admin",
): Promise<{ user_id: string }> {
  const res = await operator("POST", `/partners/${partnerId}/users`, { email, role });
  if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { user_id: string };
}

export interface Team {
  partnerId: string;
  /** The product of a partner `seedTeam` made; null for an existing partner. */
  merchantKey: string | null;
  admin: DashboardClient;
  developer: DashboardClient;
  adminId: string;
  developerId: string;
}

/**
 * A signed-in Admin and Developer of `existingPartner`, or of a new partner (one product, no
 * data) when none is given.
 */
export async function seedTeam(existingPartner?: string): Promise<Team> {
  const partnerId = existingPartner ?? uniqueId("partner");
  const merchantKey = existingPartner ? null : uniqueId("mk");
  if (merchantKey) {
    await importData({
      partners: [
        {
          partner_id: partnerId,
          name: "Team Partner",
          products: [{ merchant_key: merchantKey, name: "Team Card", documents: "uploaded" }],
        },
      ],
    });
  }
  const adminEmail = `${uniqueId("admin")}@example.com`.toLowerCase();
  const developerEmail = `${uniqueId("dev")}@example.com`.toLowerCase();
  const { user_id: adminId } = await inviteByOperator(partnerId, adminEmail, "Admin");
  const { user_id: developerId } = await inviteByOperator(partnerId, developerEmail, "Developer");
  const [admin, developer] = await Promise.all([signIn(adminEmail), signIn(developerEmail)]);
  return { partnerId, merchantKey, admin, developer, adminId, developerId };
}
