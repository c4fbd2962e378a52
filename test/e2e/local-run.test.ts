// The README's local run, end to end over real HTTP: `npm start` on a free port in a checkout of
// its own, the printed curl, a pdf_url followed to its document, Ctrl-C, and a second start that
// reuses what the first loaded.
import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PARTNER, demoImports } from "../../scripts/demo-data.ts";
import { freePort } from "../support/node/local-service.ts";
import { NpmStart as LocalRun, STARTUP_MS, scratchCopy } from "../support/node/npm-start.ts";
import { pdfText } from "../support/node/pdf-text.ts";

/** Whether nothing answers on the port any more, waiting up to `ms` for it to close. */
async function closes(port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${port}/v2/`, { signal: AbortSignal.timeout(1_000) });
    } catch {
      return true;
    }
    await sleep(200);
  }
  return false;
}

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString("base64")}`;

interface Statement {
  statement_id: string;
  period_end_date: string;
  pdf_url?: string;
  [figure: string]: unknown;
}
interface StatementPage {
  data: Statement[];
  has_more: boolean;
  next_page_token?: string;
}

async function listAll(url: string, key: string): Promise<Statement[]> {
  const all: Statement[] = [];
  let next: string | undefined = `${url.split("?")[0]}?limit=10`;
  while (next) {
    const res: Response = await fetch(next, { headers: { authorization: basic(key) } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as StatementPage;
    all.push(...page.data);
    next = page.next_page_token
      ? `${url.split("?")[0]}?limit=10&starting_after=${encodeURIComponent(page.next_page_token)}`
      : undefined;
  }
  return all;
}

/**
 * Another client on this machine sending `count` requests with bad keys to the port as soon as it
 * answers (refused connections are retried and not counted); answers the statuses it got.
 */
async function sendBadKeys(port: number, count: number): Promise<number[]> {
  const statuses: number[] = [];
  let started = 0;
  const deadline = Date.now() + STARTUP_MS;
  const url = `http://127.0.0.1:${port}/v2/customers`;
  const worker = async () => {
    while (started < count && Date.now() < deadline) {
      started += 1;
      try {
        const res = await fetch(url, {
          headers: { authorization: `Bearer sk_sandbox_${"0".repeat(38)}` },
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      } catch {
        started -= 1;
        await sleep(100);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return statuses;
}

describe("npm start while another client sends bad keys", () => {
  const runs: LocalRun[] = [];
  const checkout = scratchCopy();
  afterAll(() => {
    for (const r of runs) r.kill();
    checkout.remove();
  });

  it(
    "loads the demo and prints a curl that works, while the bad keys meet 429",
    async () => {
      const port = await freePort();
      const run = new LocalRun(checkout.root, port);
      runs.push(run);
      const flood = sendBadKeys(port, 200);
      const printed = await run.ready();
      const statuses = await flood;
      expect(statuses).toHaveLength(200);
      expect(new Set(statuses)).toEqual(new Set([401, 429]));
      const res = await fetch(printed.url, { headers: { authorization: basic(printed.key) } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as StatementPage).data).toHaveLength(3);
      await run.interrupt();
      expect(await closes(port, 15_000)).toBe(true);
    },
    STARTUP_MS,
  );
});

describe("npm start", () => {
  let port: number;
  let run: LocalRun;
  let printed: { key: string; url: string };
  const runs: LocalRun[] = [];

  // A checkout of its own: the developer's .wrangler/ (database, keys, demo.env) stays untouched.
  const checkout = scratchCopy();

  beforeAll(async () => {
    port = await freePort();
    run = new LocalRun(checkout.root, port);
    runs.push(run);
    printed = await run.ready();
  }, STARTUP_MS);

  afterAll(() => {
    for (const r of runs) r.kill();
    checkout.remove();
  });

  it("prints a curl whose demo sandbox key lists statements newest first", async () => {
    expect(printed.key).toMatch(/^sk_sandbox_/);
    const account = "customers/cus_demo_ava/accounts/acc_demo_everyday";
    expect(printed.url).toBe(`http://localhost:${port}/v2/${account}/statements?limit=3`);
    const res = await fetch(printed.url, { headers: { authorization: basic(printed.key) } });
    expect(res.status).toBe(200);
    const demo = demoImports()
      .flatMap((i) => i.partners)
      .find((p) => p.partner_id === DEMO_PARTNER);
    expect(res.headers.get("x-service-version")).toBe(demo?.saved_versions.sandbox);
    const page = (await res.json()) as StatementPage;
    expect(page.data).toHaveLength(3);
    expect(page.has_more).toBe(true);
    expect(typeof page.next_page_token).toBe("string");
    const ends = page.data.map((s) => s.period_end_date);
    expect(ends).toEqual([...ends].sort().reverse());
    // The service rendered every demo statement's document by the time the curl is printed.
    for (const s of page.data) {
      expect(s.pdf_url).toMatch(new RegExp(`^http://localhost:${port}/files/`));
    }
  });

  it("serves two years of statements in the card-statement sign convention", async () => {
    const statements = await listAll(printed.url, printed.key);
    expect(statements.length).toBeGreaterThanOrEqual(24);
    expect(new Set(statements.map((s) => s.statement_id)).size).toBe(statements.length);
    const figure = (s: Statement, name: string) => (s[name] as number | undefined) ?? 0;
    for (const s of statements) {
      const sum = ["previous_balance", "purchases", "payments", "credits", "refunds"]
        .concat(["interest", "fees"])
        .reduce((total, name) => total + figure(s, name), 0);
      expect(s.statement_balance, s.statement_id).toBe(sum);
      for (const name of ["purchases", "interest", "fees"])
        expect(figure(s, name)).toBeGreaterThanOrEqual(0);
      for (const name of ["payments", "credits", "refunds"])
        expect(figure(s, name)).toBeLessThanOrEqual(0);
      if ("overdue_amount" in s) expect(s.overdue_amount).toBe(0);
    }
    const quiet = statements.filter((s) => !("purchases" in s) && !("payments" in s));
    expect(quiet.length).toBeGreaterThanOrEqual(1);
    expect(statements.filter((s) => s.pdf_url).length).toBe(statements.length);
  });

  it("follows a pdf_url to the PDF without a key", async () => {
    const res = await fetch(printed.url, { headers: { authorization: basic(printed.key) } });
    const page = (await res.json()) as StatementPage;
    const statement = page.data[0] as Statement;
    const pdf = await fetch(statement.pdf_url as string);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    expect(Number(pdf.headers.get("content-length"))).toBe(bytes.length);
    // The service's own rendering, in the product's presentation, not a placeholder.
    const text = await pdfText(bytes);
    expect(text).toContain("Demo Bank");
    expect(text).toContain(`Statement ${statement.statement_id}`);
    const balance = (statement.statement_balance as number) / 100;
    expect(text).toContain(balance.toLocaleString("en-US", { style: "currency", currency: "USD" }));
  });

  it("keeps production keys and data apart from sandbox", async () => {
    const env = readFileSync(path.join(checkout.root, ".wrangler", "demo.env"), "utf8");
    const liveKey = /^export DEMO_LIVE_KEY=(\S+)$/m.exec(env)?.[1] ?? "";
    expect(liveKey).toMatch(/^sk_live_/);
    const base = `http://localhost:${port}/v2/customers`;
    const live = await fetch(`${base}/cus_live_noah/accounts/acc_live_noah/statements`, {
      headers: { authorization: `Bearer ${liveKey}` },
    });
    expect(live.status).toBe(200);
    expect(((await live.json()) as StatementPage).data.length).toBeGreaterThan(0);
    const crossed = await fetch(printed.url, { headers: { authorization: `Bearer ${liveKey}` } });
    expect(crossed.status).toBe(404);
  });

  it("prints a one-click sign-in link for the demo Admin and Developer", async () => {
    const base = `http://localhost:${port}`;
    for (const [role, email] of [
      ["Admin", "admin@demo-bank.example"],
      ["Developer", "developer@demo-bank.example"],
    ] as const) {
      const line = new RegExp(
        `${role} +${email} +(http://\\S+/dashboard/sign-in/confirm\\?token=\\S+)`,
      );
      const link = line.exec(run.output)?.[1] ?? "";
      expect(link.startsWith(`${base}/dashboard/sign-in/confirm?token=`), role).toBe(true);
      // Opening the link asks to confirm; the confirmation signs in.
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(email);
      const token = new URL(link).searchParams.get("token") ?? "";
      const signedIn = await fetch(`${base}/dashboard/sign-in/confirm`, {
        method: "POST",
        headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }).toString(),
        redirect: "manual",
      });
      expect(signedIn.status).toBe(303);
      const cookie = signedIn.headers.getSetCookie()[0]?.split(";")[0] ?? "";
      const keys = await fetch(`${base}/dashboard/sandbox/keys`, { headers: { cookie } });
      expect(keys.status).toBe(200);
      expect(await keys.text()).toContain(`${email} (${role})`);
    }
  });

  it(
    "stops on Ctrl-C, then starts again with the same key and nothing left to load",
    async () => {
      await run.interrupt();
      expect(await closes(port, 15_000)).toBe(true);

      const again = new LocalRun(checkout.root, port);
      runs.push(again);
      const second = await again.ready();
      expect(second.key).toBe(printed.key);
      expect(again.output).toMatch(/; 0 PDFs rendered now\./);
      // Fresh sign-in links each start (the demo users are invited once).
      expect(again.output).toMatch(/Admin +admin@demo-bank\.example +http:\S+token=/);
      const res = await fetch(second.url, { headers: { authorization: basic(second.key) } });
      expect(res.status).toBe(200);
      await again.interrupt();
      expect(await closes(port, 15_000)).toBe(true);
    },
    STARTUP_MS,
  );
});
