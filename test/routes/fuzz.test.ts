// A property-based HTTP fuzzer: every route the app registers (and every row of the route list),
// every method, with generated credentials, versions, merchant keys, conditional and range
// headers, queries, path segments and bodies. Invariants: never a 5xx (but the 501 the reference
// documents for routes this service does not offer), and every /v2 response matches the reference
// of its version. The seed is printed; FUZZ_SEED=<seed> replays a run and
// FUZZ_RUNS=<n> changes its size.
import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { api, expectJson, operator } from "../support/api";
import { assertMatchesReference, keyEnvironment } from "../support/contract";
import { createKey, pdfBytes, seedAccount, statementsPath } from "../support/fixtures";
import {
  type Generated,
  generatedRequests,
  routePatterns,
  type World,
} from "../support/fuzz-requests";
import { BASE } from "../support/worker";

const RUNS = Number(env.FUZZ_RUNS || 2000);
const SEED = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : Date.now() ^ (Math.random() * 2 ** 31);

let world: World;

beforeAll(async () => {
  const fixture = await seedAccount({ statements: 5 });
  const statementId = `${fixture.accountId}_st_005`;
  const upload = await operator("PUT", `/statements/${statementId}/pdf`, pdfBytes("fuzz"), {
    "content-type": "application/pdf",
  });
  expect(upload.status).toBe(204);
  const unscoped = await createKey(fixture.partnerId, "sandbox", []);
  const revoked = await createKey(fixture.partnerId, "sandbox", ["ACCOUNT_READ"]);
  const sacrificial = await createKey(fixture.partnerId, "sandbox", []);
  expect((await operator("DELETE", `/keys/${revoked.keyId}`)).status).toBe(204);
  const page = await expectJson<{ data: { pdf_url: string }[]; next_page_token: string }>(
    await api(statementsPath(fixture, "?limit=2"), { key: fixture.key }),
    200,
  );
  world = {
    fixture,
    keys: { scoped: fixture.key, unscoped: unscoped.apiKey, revoked: revoked.apiKey },
    statementId,
    sacrificialKeyId: sacrificial.keyId,
    pageToken: page.next_page_token,
    link: new URL(String(page.data[0]?.pdf_url)),
  };
});

// ---- the property ---------------------------------------------------------------------------

let sent = 0;
const statuses = new Map<number, number>();

async function check(input: Generated): Promise<void> {
  const url = `${BASE}${input.path}${input.query ? `?${input.query}` : ""}`;
  let req: Request;
  try {
    const init: RequestInit = { method: input.method, headers: input.headers as HeadersInit };
    if (input.body !== undefined && !["GET", "HEAD"].includes(input.method)) init.body = input.body;
    req = new Request(url, init);
  } catch {
    // Not a request any client could send: fast-check draws another in its place, so every
    // one of the runs is a request sent.
    fc.pre(false);
    return;
  }
  sent += 1;
  const res = await exports.default.fetch(req);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  // Bytes, not text(): a PDF link's answer is binary.
  const text = new TextDecoder().decode(await res.clone().arrayBuffer());
  // 501 is the documented answer of the route list's unimplemented routes (checked below).
  if (res.status >= 500 && !(res.status === 501 && input.path.startsWith("/v2/"))) {
    throw new Error(`${req.method} ${url} → ${res.status}: ${text.slice(0, 300)}`);
  }
  const { pathname, search } = new URL(url);
  if (pathname.startsWith("/v2/")) {
    const environment = keyEnvironment(req.headers.get("authorization"));
    await assertMatchesReference(pathname + search, req.method, res, undefined, environment);
  }
}

describe("HTTP fuzzing", () => {
  it(`answers ${RUNS} generated requests without a 5xx, each as its reference says`, async () => {
    console.log(`fuzz: seed ${SEED}, ${RUNS} runs (replay with FUZZ_SEED=${SEED})`);
    const patterns = routePatterns();
    expect(patterns).toContain("/v2/customers/:customer_id/accounts/:account_id/statements");
    expect(patterns).toContain("/files/statements/:statement_id/pdf");
    expect(patterns).toContain("/operator/v1/import");
    await fc.assert(fc.asyncProperty(generatedRequests(world), check), {
      seed: SEED,
      numRuns: RUNS,
      // A failure is reported with its seed and path; shrinking HTTP runs would take minutes.
      endOnFailure: true,
    });
    const counts = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    console.log(`fuzz: ${sent} requests sent; statuses ${counts.join(", ")}`);
    expect(sent).toBe(RUNS);
  }, 600_000);
});
