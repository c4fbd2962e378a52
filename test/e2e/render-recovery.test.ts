// A render whose queue message is lost, in a real local run: Miniflare keeps a queue's messages in
// memory, so stopping `wrangler dev` right after an import loses the renders still queued, while
// their rows stay pending in D1. A second run over the same state renders none of them by itself;
// the five-minute sweep (the cron, which local runs fire themselves: scripts/local-cron.ts) finds
// them overdue and sends them again, and every statement gets its document.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { runScheduled } from "../../scripts/local-cron.ts";
import {
  type LocalService,
  operatorFetch,
  startLocalService,
} from "../support/node/local-service.ts";
import { PROCESS_TEST_MS } from "../support/node/timeouts.ts";

const STATEMENTS = 100;
/** The sweep re-sends renders overdue by five minutes (src/jobs/maintenance.ts, SWEEP_GRACE_MS). */
const SWEEP_GRACE_MS = 5 * 60_000;

function statement(i: number) {
  const end = new Date(Date.UTC(2026, 9 - i, 0, 23, 59, 59));
  return {
    statement_id: `st_lost_${String(i).padStart(3, "0")}`,
    account_id: "acc_lost",
    period_end_date: end.toISOString(),
    currency: "USD",
    statement_balance: 1000 + i,
    purchases: 1000 + i,
  };
}

/** How many of the partner's renders are in `status`, paging through the operator's listing. */
async function count(service: LocalService, status: string): Promise<number> {
  let total = 0;
  let after = "";
  for (;;) {
    const query = `status=${status}&limit=100${after ? `&starting_after=${after}` : ""}`;
    const res = await operatorFetch(service, `/partners/lost_bank/statement-renders?${query}`);
    const page = (await res.json()) as { data: { statement_id: string }[]; has_more: boolean };
    total += page.data.length;
    if (!page.has_more) return total;
    after = page.data.at(-1)?.statement_id ?? "";
  }
}

describe("a render whose queue message was lost in a local run", () => {
  const state = mkdtempSync(path.join(os.tmpdir(), "render-recovery-"));
  let service: LocalService | undefined;

  afterAll(async () => {
    await service?.stop();
    rmSync(state, { recursive: true, force: true });
  });

  it("is sent again by the five-minute sweep, and rendered", {
    timeout: 2 * PROCESS_TEST_MS,
  }, async () => {
    // The local cron stays off: the sweep is fired below, as the cron would fire it later.
    service = await startLocalService({ state, cron: false });
    const imported = await operatorFetch(service, "/import", {
      method: "POST",
      body: JSON.stringify({
        partners: [
          {
            partner_id: "lost_bank",
            name: "Lost Bank",
            products: [{ merchant_key: "mk_lost", name: "Lost Card", documents: "rendered" }],
          },
        ],
        customers: [
          {
            customer_id: "cus_lost",
            partner_id: "lost_bank",
            environment: "sandbox",
            merchant_key: "mk_lost",
          },
        ],
        accounts: [{ account_id: "acc_lost", customer_id: "cus_lost", currency: "USD" }],
        statements: Array.from({ length: STATEMENTS }, (_, i) => statement(i)),
      }),
    });
    expect(imported.status, await imported.text()).toBe(200);
    // The run stops at once: what the queue still held is gone with it.
    await service.stop();
    const importedAt = Date.now();

    service = await startLocalService({ state, cron: false });
    const lost = await count(service, "pending");
    expect(lost, "the first run rendered everything before it stopped").toBeGreaterThan(0);
    expect(lost + (await count(service, "rendered"))).toBe(STATEMENTS);
    // Nothing sends them again by itself: the queue of the new run is empty.
    await sleep(5_000);
    expect(await count(service, "pending")).toBe(lost);

    // The cron's run once they are overdue by the sweep's grace period.
    const outcome = await runScheduled(
      `http://127.0.0.1:${service.port}`,
      importedAt + SWEEP_GRACE_MS + 60_000,
    );
    expect(outcome).toBe("ok");
    const deadline = Date.now() + 300_000;
    while ((await count(service, "pending")) > 0 && Date.now() < deadline) await sleep(1_000);
    expect(await count(service, "pending")).toBe(0);
    expect(await count(service, "rendered")).toBe(STATEMENTS);
    expect(await count(service, "failed")).toBe(0);
  });
});
