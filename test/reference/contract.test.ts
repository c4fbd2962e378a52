// The contract between each version's reference and what the API answers in that version: the
// check itself rejects drift, and every version's successes and errors pass it.
import { describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { ALL_VERSIONS } from "../support/bundle-versions";
import { assertMatchesReference } from "../support/contract";
import { createKey, pdfBytes, seedAccount, statementsPath } from "../support/fixtures";
import type { Json } from "../support/json";
import {
  ENVELOPE,
  FLAT_ERRORS,
  WITH_PDF_OBJECT,
  WITH_PDF_URL,
} from "../support/reference-versions";

describe("contract: every version's reference matches what the API answers", () => {
  it("rejects a body that drifts from the reference", async () => {
    const statement = {
      statement_id: "st_1",
      customer_id: "cus_1",
      account_id: "acc_1",
      as_of: "2026-11-02T10:00:00.000Z",
    };
    const respond = (version: string, body: unknown, status = 200) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json", "x-service-version": version },
      });
    const path = "/v2/customers/cus_1/accounts/acc_1/statements";
    const pdf = { url: "https://api.test/f", expires_at: "2026-11-02T11:00:00.000Z" };
    const list = (item: object) => ({ data: [item], has_more: false });

    const newer = WITH_PDF_OBJECT[0] as string;
    const older = WITH_PDF_URL[0] as string;
    await assertMatchesReference(path, "GET", respond(newer, list({ ...statement, pdf })));
    await expect(
      assertMatchesReference(path, "GET", respond(older, list({ ...statement, pdf }))),
    ).rejects.toThrow(/drifts/);
    await expect(
      assertMatchesReference(path, "GET", respond(older, list({ ...statement, hidden: 1 }))),
    ).rejects.toThrow(/drifts/);
    await expect(
      assertMatchesReference(path, "GET", respond(older, list({ ...statement, fees: 1.5 }))),
    ).rejects.toThrow(/drifts/);
    const { as_of, ...rest } = statement;
    await expect(
      assertMatchesReference(path, "GET", respond(older, list({ ...rest, as_of }))),
    ).resolves.toBeUndefined();
    const { customer_id, ...reordered } = statement;
    await expect(
      assertMatchesReference(path, "GET", respond(older, list({ ...reordered, customer_id }))),
    ).rejects.toThrow(/not in the reference's order/);
    const flat = { type: "CUSTOMER_NOT_FOUND_ERROR", message: "no", param: "customer_id" };
    await assertMatchesReference(path, "GET", respond(FLAT_ERRORS[0] as string, flat, 404));
    await expect(assertMatchesReference(path, "GET", respond(ENVELOPE, flat, 404))).rejects.toThrow(
      /drifts/,
    );
    await expect(
      assertMatchesReference(path, "GET", respond(older, list(statement), 418)),
    ).rejects.toThrow(/not documented/);
    await expect(
      assertMatchesReference(path, "GET", new Response("{}", { status: 200 })),
    ).rejects.toThrow(/x-service-version/);
  });

  for (const version of ALL_VERSIONS) {
    it(`holds for successes and errors in ${version}`, async () => {
      const f = await seedAccount({ statements: 3 });
      const [first] = (await expectJson<Json>(await api(statementsPath(f), { key: f.key }), 200))
        .data;
      const pdf = await operator("PUT", `/statements/${first.statement_id}/pdf`, pdfBytes(), {
        "content-type": "application/pdf",
      });
      expect(pdf.status).toBe(204);
      const call = (path: string, options: Parameters<typeof api>[1] = {}) =>
        api(path, { key: f.key, version, ...options });

      const page = await expectJson<Json>(await call(statementsPath(f, "?limit=2")), 200);
      expect(page.data[0][WITH_PDF_URL.includes(version) ? "pdf_url" : "pdf"]).toBeDefined();
      await expectJson(
        await call(statementsPath(f, `?starting_after=${page.next_page_token}`)),
        200,
      );
      await expectJson(await call(statementsPath(f, "?limit=0")), 400);
      await expectJson(await call(statementsPath(f, "?starting_after=nope")), 400);
      await expectJson(await call(statementsPath({ ...f, customerId: "cus_missing" })), 404);
      await expectJson(await call(statementsPath({ ...f, accountId: "acc_missing" })), 404);
      // One statement and its line items: a success, a refused filter and a missing statement.
      const one = `${statementsPath(f)}/${first.statement_id}`;
      await expectJson(await call(one), 200);
      const items = await expectJson<Json>(await call(`${one}/line_items?limit=1`), 200);
      expect(items).toEqual({ data: [], has_more: false });
      await expectJson(await call(`${one}/line_items?type=NOPE`), 400);
      await expectJson(await call(`${statementsPath(f)}/st_missing`), 404);
      await expectJson(await call(`${statementsPath(f)}/st_missing/line_items`), 404);
      await expectJson(await call(`/v2/customers/${f.customerId}/accounts`), 200);
      await expectJson(await call(`/v2/customers/${f.customerId}/accounts/${f.accountId}`), 200);
      await expectJson(await call(`/v2/customers/${f.customerId}`), 200);
      await expectJson(await call("/v2/customers?limit=1"), 200);
      await expectJson(
        await call(`/v2/customers/${f.customerId}/link`, {
          method: "POST",
          body: { partner_customer_id: "p-1" },
        }),
        200,
      );
      await expectJson(
        await call(`/v2/customers/${f.customerId}/link`, { method: "POST", body: {} }),
        400,
      );
      await expectJson(await call("/v2/keys", { method: "POST" }), 201);
      await expectJson(await call("/v2/keys", { method: "POST", body: { scopes: [] } }), 400);
      await expectJson(await call("/v2/orders"), 403);
      await expectJson(await call("/v2/customers", { merchantKey: "mk_unknown" }), 400);
      await expectJson(await call("/v2/no-such-route"), 404);
      const orders = await createKey(f.partnerId, "sandbox", ["ORDER_READ"]);
      await expectJson(await call("/v2/orders", { key: orders.apiKey }), 200);
      const rewards = `/v2/customers/${f.customerId}/accounts/${f.accountId}/rewards_categories`;
      await expectJson(await call(rewards), 200);
      await expectJson(await call(statementsPath(f), { key: "sk_sandbox_wrong" }), 401);
    });
  }

  it("holds for the unsupported-version 400, which carries no version header", async () => {
    const f = await seedAccount();
    const res = await api(statementsPath(f), { key: f.key, version: "2024-01-01" });
    expect(res.headers.get("x-service-version")).toBeNull();
    const body = await expectJson<Json>(res, 400);
    expect(body.error.type).toBe("BAD_REQUEST_ERROR");
  });
});
