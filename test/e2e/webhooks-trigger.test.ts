// Trying a receiver locally, as docs/webhooks.md walks through it, over real HTTP: a throwaway
// `wrangler dev` (the renderer Worker beside it), `npm run webhooks:listen -- --forward-to …`
// forwarding each verified delivery to the partner's own receiver (the client's example), and
// `npm run webhooks:trigger <type>` making the event happen through the sandbox simulations.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freePort,
  type LocalService,
  operatorFetch,
  startLocalService,
} from "../support/node/local-service";
import { startReceiver, waitFor } from "../support/node/webhook-receiver";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const SECRET_ENV = path.join(ROOT, ".wrangler", "webhooks-listen.env");

/** A process this test started, in a group of its own, with what it printed so far. */
interface Running {
  child: ChildProcess;
  output(): string;
  /** Waits until a printed line matches `pattern`; answers the line. */
  line(pattern: RegExp, ms?: number): Promise<string>;
  /** Ctrl-C, as a reader stops it; waits for it to end. */
  stop(): Promise<void>;
}

function start(command: string, args: string[], env: Record<string, string>): Running {
  let printed = "";
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const ended = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    child,
    output: () => printed,
    async line(pattern, ms = 60_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = printed.split("\n").find((l) => pattern.test(l));
        if (found) return found;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`no line like ${pattern}; printed:\n${printed}`);
        }
        await sleep(50);
      }
    },
    async stop() {
      if (child.exitCode !== null || !child.pid) return;
      try {
        process.kill(-child.pid, "SIGINT");
      } catch {
        return; // it ended meanwhile
      }
      await Promise.race([ended, sleep(20_000)]);
    },
  };
}

describe("trying a receiver on this machine", () => {
  let service: LocalService;
  let env: Record<string, string>;
  const running: Running[] = [];

  const trigger = (type: string) =>
    spawnSync("npm", ["run", "--silent", "webhooks:trigger", type], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: "utf8",
      timeout: 120_000,
    });

  beforeAll(async () => {
    service = await startLocalService({
      vars: { WEBHOOK_ALLOW_LOOPBACK: "true", WEBHOOK_RETRY_BASE_SECONDS: "1" },
    });
    const operator = (route: string, body: unknown) =>
      operatorFetch(service, route, { method: "POST", body: JSON.stringify(body) });
    // A product whose statement documents the service renders, and nothing else: the trigger
    // makes its own customer.
    const imported = await operator("/import", {
      partners: [
        {
          partner_id: "trigger_bank",
          name: "Trigger Bank",
          products: [{ merchant_key: "mk_trigger", name: "Trigger Card" }],
        },
      ],
    });
    expect(imported.status, await imported.text()).toBe(200);
    const key = await operator("/partners/trigger_bank/keys", {
      environment: "sandbox",
      scopes: ["ACCOUNT_READ"],
    });
    expect(key.status).toBe(201);
    env = { API_KEY: ((await key.json()) as { api_key: string }).api_key, BASE: service.base };
  }, 180_000);

  afterAll(async () => {
    for (const process of running) await process.stop();
    await service?.stop();
  });

  it("forwards a triggered statement and its PDF to the partner's receiver, verified", async () => {
    const port = await freePort();
    const target = `http://127.0.0.1:${port}/webhooks`;
    const listen = start("npm", ["run", "webhooks:listen", "--", "--forward-to", target], env);
    running.push(listen);
    await listen.line(/^Listening on http:\/\/127\.0\.0\.1:\d+\/webhooks, webhook endpoint we_/);
    await listen.line(/^Forwarding each verified delivery to /);
    const secretLine = await listen.line(/^Your webhook signing secret is whsec_/);
    // The partner's receiver verifies with the secret the listener wrote.
    const secret = /WEBHOOK_SECRET=(\S+)/.exec(readFileSync(SECRET_ENV, "utf8"))?.[1] ?? "";
    expect(secretLine).toContain(secret);
    const receiver = start(process.execPath, ["packages/client/examples/receiver.ts"], {
      WEBHOOK_SECRET: secret,
      PORT: String(port),
    });
    running.push(receiver);
    await receiver.line(new RegExp(`^Receiving on ${target}$`));

    const made = trigger("statement.pdf_available");
    expect(made.status, made.stderr).toBe(0);
    const lines = made.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^Closed a sandbox billing cycle of account acc_\w+ \(customer cus_\w+\): statement st_\w+\.$/,
    );
    const statement = /statement (st_\w+)\.$/.exec(lines[0] ?? "")?.[1];
    const created = /^✔ statement\.created (evt_\w+)$/.exec(lines[1] ?? "")?.[1];
    const pdf = /^✔ statement\.pdf_available (evt_\w+)$/.exec(lines[2] ?? "")?.[1];
    expect(created && pdf).toBeTruthy();
    // Each reaches the partner's receiver, verified with the endpoint's secret, once.
    await receiver.line(new RegExp(`^statement\\.created ${created} for ${statement}$`));
    await receiver.line(new RegExp(`^statement\\.pdf_available ${pdf} for ${statement}$`));
    await listen.line(new RegExp(`^✔ statement\\.pdf_available ${pdf} .*, forwarded: 204$`));
    expect(receiver.output()).not.toContain("refused");

    // A second trigger finds the tool's customer again and closes its next cycle.
    const again = trigger("statement.created");
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout.trim().split("\n")).toHaveLength(2);
    expect(again.stdout).toContain(/\(customer (cus_\w+)\)/.exec(lines[0] ?? "")?.[1] ?? "?");

    await listen.stop();
    expect(listen.output()).toMatch(/Deleted webhook endpoint we_\w+\./);
  });

  it("forwards the delivery's headers and body unchanged, and answers with the receiver's status", async () => {
    const recorder = await startReceiver();
    try {
      const listen = start(
        "npm",
        [
          "run",
          "webhooks:listen",
          "--",
          "--events",
          "statement.created",
          "--forward-to",
          `${recorder.url}/fail-twice/hooks`,
        ],
        env,
      );
      running.push(listen);
      await listen.line(/^Listening on /);
      const secret = /is (whsec_\S+)/.exec(await listen.line(/^Your webhook signing secret/))?.[1];
      // Registered for one type: the PDFs of the statements triggered before reach it no more.
      expect(trigger("statement.created").status).toBe(0);
      // The receiver fails twice: the service retries, through the listener, until it answers.
      const forwarded = await waitFor(recorder.received, "/fail-twice/hooks", 3, 60_000);
      expect(forwarded).toHaveLength(3);
      for (const delivery of forwarded) {
        new Webhook(secret ?? "").verify(delivery.body, delivery.headers);
        expect(delivery.headers["user-agent"]).toBe("CardStatements-Webhooks/1.0");
        expect(delivery.headers["content-type"]).toBe("application/json");
      }
      expect(new Set(forwarded.map((d) => d.headers["webhook-id"])).size).toBe(1);
      await listen.line(/, forwarded: 500$/);
      await listen.line(/, forwarded: 200$/);
      await listen.stop();
    } finally {
      recorder.server.close();
    }
  });

  it("refuses a type no simulation makes, naming those it can", () => {
    for (const [type, reason] of [
      ["statement.hidden", "no sandbox simulation makes statement.hidden events"],
      ["invoice.paid", "invoice.paid is not an event type of API version"],
    ]) {
      const refused = trigger(type as string);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(reason);
      expect(refused.stderr).toContain(
        "webhooks:trigger makes statement.created, statement.pdf_available",
      );
    }
  });
});
