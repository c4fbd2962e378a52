// A card's PAN and CVV stay where an issuer keeps them: a known PAN is written, every path that
// touches a card is driven (the import and its refusals, a re-import, masked and unmasked reads,
// the lists, the 404s, the data browser and the audit page, a maintenance run re-encrypting under
// a rotated key), and then every store is scanned for it: every table of every shard and of the
// directory (request logs, audit, events, deliveries and dead letters included), every object
// of every bucket, and everything written to the console.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { api, expectJson } from "../support/api";
import { cardItem, importCards, testPan } from "../support/cards";
import { seedTeam } from "../support/dashboard";
import { createKey, importData, uniqueId } from "../support/fixtures";
import { postImport } from "../support/imports";
import { allLogged, requestIdOf } from "../support/request-logs";
import { SHARDS, shardDatabase } from "../support/shards";

const printed: string[] = [];
beforeEach(() => {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method].bind(console);
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      printed.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
      original(...args);
    });
  }
});
afterEach(() => vi.restoreAllMocks());

/** Every row of every table of a database, as text. */
async function everyRow(db: D1Database): Promise<string> {
  const { results: tables } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' " +
        "AND name NOT LIKE '_cf_%'",
    )
    .all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables) {
    const { results } = await db.prepare(`SELECT * FROM "${name}"`).all();
    parts.push(JSON.stringify(results));
  }
  return parts.join("\n");
}

/** Every object of every bucket bound to the Worker: keys, metadata and bodies, as text. */
async function everyObject(): Promise<string> {
  const parts: string[] = [];
  for (const [name, binding] of Object.entries(env)) {
    if (!name.startsWith("PDFS")) continue;
    const bucket = binding as R2Bucket;
    let cursor: string | undefined;
    do {
      const listed = await bucket.list({ cursor, include: ["customMetadata", "httpMetadata"] });
      for (const object of listed.objects) {
        parts.push(object.key, JSON.stringify(object.customMetadata ?? {}));
        const body = await bucket.get(object.key);
        if (body) parts.push(new TextDecoder("latin1").decode(await body.arrayBuffer()));
      }
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor);
  }
  return parts.join("\n");
}

describe("a card's PAN and CVV", () => {
  it("are found in no table, bucket, log record or console line after every path", async () => {
    const team = await seedTeam();
    const merchantKey = team.merchantKey as string;
    const customerId = uniqueId("cus");
    const accountId = uniqueId("acc");
    await importData({
      customers: [
        {
          customer_id: customerId,
          partner_id: team.partnerId,
          environment: "sandbox",
          merchant_key: merchantKey,
        },
      ],
      accounts: [{ account_id: accountId, customer_id: customerId }],
    });
    const pan = testPan();
    const cvv = "8317";
    const card = cardItem({ customerId, accountId }, { card: { pan, cvv } });
    const otherPan = testPan();
    const secrets = [pan, otherPan, pan.slice(0, 12), pan.slice(4)];

    // The import, its refusals and a re-import.
    await importCards(card);
    expect(
      (await postImport({ payment_methods: [{ ...card, card: { ...card.card, last4: "0000" } }] }))
        .status,
    ).toBe(400);
    expect(
      (
        await postImport({
          payment_methods: [
            { ...card, card: { ...card.card, pan: otherPan, last4: otherPan.slice(-4) } },
          ],
        })
      ).status,
    ).toBe(409);
    await importCards({ ...card, status: "INACTIVE" });

    // Masked and unmasked reads, the list, a 404; each recorded in the request log.
    const { apiKey, keyId } = await createKey(team.partnerId, "sandbox", ["PCI_DETAILS_READ"]);
    const calls = [
      `/v2/payment_methods/${card.payment_method_id}`,
      `/v2/payment_methods?customer_id=${customerId}`,
      `/v2/payment_methods?customer_id=${customerId}&status=LOST`,
      `/v2/payment_methods/${uniqueId("pm")}`,
    ];
    const ids: string[] = [];
    for (const path of calls) {
      const res = await api(path, { key: apiKey, merchantKey });
      ids.push(requestIdOf(res));
      await res.text();
    }
    const unmasked = await expectJson<{ card: { pci_details?: { pan: string } } }>(
      await api(`/v2/payment_methods/${card.payment_method_id}`, { key: apiKey, merchantKey }),
      200,
    );
    expect(unmasked.card.pci_details?.pan).toBe(pan);
    await allLogged(ids);

    // The data browser shows the card masked; the audit page counts the key's reads.
    const customerPage = await (
      await team.admin.get(`/dashboard/sandbox/customers/${customerId}`)
    ).text();
    expect(customerPage).toContain(`•••• ${pan.slice(-4)}`);
    expect(customerPage).toContain(card.payment_method_id);
    const auditPage = await (await team.admin.get("/dashboard/audit")).text();
    expect(auditPage).toContain("Card numbers read");
    expect(auditPage).toMatch(new RegExp(`<code>${keyId}</code></td><td>sandbox</td><td>2</td>`));
    expect(auditPage).toContain(card.payment_method_id);
    const pages = customerPage + auditPage;

    // A rotation's maintenance run encrypts the card again under the new key.
    const rotated = `next-1:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))},${env.CARD_DATA_KEYS}`;
    await worker.scheduled(
      createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }),
      { ...env, CARD_DATA_KEYS: rotated },
    );

    const stores = [
      ...(await Promise.all(SHARDS.map((shard) => everyRow(shardDatabase(shard))))),
      await everyRow(env.DIRECTORY),
      await everyObject(),
      pages,
      printed.join("\n"),
    ];
    for (const secret of secrets) {
      for (const [i, text] of stores.entries()) {
        expect(text.includes(secret), `store ${i} holds a PAN's digits`).toBe(false);
      }
    }
    // The CVV is four digits, which an id or a time may hold: it is looked for where it would be.
    expect(pages).not.toContain(`>${cvv}<`);
    expect(printed.join("\n")).not.toMatch(new RegExp(`"cvv"\\s*:\\s*"${cvv}"`));
    // The card was there to be found: its id and last four digits are stored in the clear.
    expect(stores[SHARDS.indexOf(SHARDS[0] as string)]?.length).toBeGreaterThan(0);
    expect(stores.join("\n")).toContain(card.payment_method_id);
  }, 60_000);
});
