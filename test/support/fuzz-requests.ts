// The fuzzer's generators: requests to every route the app registers (and every row of the
// route table), with generated credentials, versions, merchant keys, conditional and range
// headers, queries, path segments and bodies, around the ids of one fixture.
import fc from "fast-check";
import { bundle } from "../../src/bundle";
import { app } from "../../src/index";
import { ROUTES } from "../../src/routes";
import { OLDEST } from "./bundle-versions";
import type { Fixture } from "./fixtures";
import { OPERATOR_TOKEN } from "./worker";

export function registeredRoutes(): { method: string; path: string }[] {
  const routes = new Map<string, { method: string; path: string }>();
  for (const { method, path } of [...app.routes, ...ROUTES]) {
    if (!path.includes("*")) routes.set(`${method} ${path}`, { method, path });
  }
  return [...routes.values()];
}

export function routePatterns(): string[] {
  return [...new Set(registeredRoutes().map((r) => r.path))].sort();
}

export const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;

/** The fixture the generated requests aim at. */
export interface World {
  fixture: Fixture;
  /** Keys: ACCOUNT_READ, no scope, revoked. */
  keys: { scoped: string; unscoped: string; revoked: string };
  statementId: string;
  /** A key the fuzzer may revoke: never the one its requests use. */
  sacrificialKeyId: string;
  pageToken: string;
  link: URL;
}

/** A generated request. */
export interface Generated {
  method: string;
  path: string;
  query: string;
  headers: Partial<Record<string, string>>;
  body: string | undefined;
}

/** Requests around `world`'s ids: registered routes, other methods, the link, stray paths. */
export function generatedRequests(world: World): fc.Arbitrary<Generated> {
  const printable = (maxLength = 40) => fc.string({ unit: "grapheme-ascii", maxLength });
  const anyText = (maxLength = 40) => fc.string({ unit: "binary", maxLength });

  /** A path segment: a real id, or something odd, sometimes escaped. */
  const segment = () =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...ids()) },
      fc.constantFrom("..", ".", "%2e%2e", "%00", "%zz", "a%2Fb", "", "x".repeat(300)),
      printable(20).map(encodeURIComponent),
      anyText(12).map(encodeURIComponent),
    );

  function ids(): string[] {
    const f = world.fixture;
    return [
      f.customerId,
      f.accountId,
      f.partnerId,
      world.statementId,
      world.sacrificialKeyId,
      "sandbox",
      "production",
      ...bundle.versions.map((v) => `${v.id}.json`),
    ];
  }

  const authorization = () =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(`Bearer ${world.keys.scoped}`) },
      { weight: 3, arbitrary: fc.constant(`Bearer ${OPERATOR_TOKEN}`) },
      fc.constantFrom(
        `Basic ${btoa(`${world.keys.scoped}:`)}`,
        `bearer ${world.keys.unscoped}`,
        `Bearer ${world.keys.revoked}`,
        `Bearer ${OPERATOR_TOKEN}`,
        `Bearer sk_sandbox_${"0".repeat(34)}`,
        `Bearer ${world.keys.scoped.slice(0, -1)}`,
        "Basic !!!",
        "Basic ",
        "Bearer",
        "",
      ),
      printable(60),
    );

  const httpDate = () =>
    fc
      .date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
      .map((d) => d.toUTCString());

  const conditional = () =>
    fc.oneof(
      fc.constantFrom("*", '"x"', 'W/"x"', '"a", "b"', "garbage", 'W/"', ",", '"'),
      httpDate(),
      printable(30),
    );

  const range = () =>
    fc.oneof(
      fc
        .tuple(fc.option(fc.nat(5000)), fc.option(fc.nat(5000)))
        .map(([a, b]) => `bytes=${a ?? ""}-${b ?? ""}`),
      fc.constantFrom("bytes=0-0,2-3", "items=0-1", "bytes=-0", "bytes=99999999999999999999-"),
      printable(20),
    );

  const headers = () =>
    fc
      .record(
        {
          authorization: authorization(),
          "x-service-version": fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...bundle.versions.map((v) => v.id)) },
            fc.constantFrom("", " 2025-05-05", "2025-05-05, latest", "2024-01-01", "LATEST"),
            printable(12),
          ),
          "x-service-merchant-key": fc.oneof(fc.constant(world.fixture.merchantKey), printable(12)),
          "content-type": fc.constantFrom(
            "application/json",
            "application/pdf",
            "text/plain",
            "application/json; charset=utf-8",
            "",
          ),
          "if-match": conditional(),
          "if-none-match": conditional(),
          "if-modified-since": fc.oneof(httpDate(), printable(30)),
          "if-unmodified-since": fc.oneof(httpDate(), printable(30)),
          "if-range": conditional(),
          range: range(),
          origin: fc.constantFrom("https://partner.example", "null"),
          "access-control-request-method": fc.constantFrom("GET", "POST"),
          "x-request-id": printable(20),
        },
        { requiredKeys: [] },
      )
      .map((generated) => {
        // Most requests carry credentials: without them nothing gets past authentication.
        if (generated.authorization === undefined && Math.random() < 0.8) {
          return { ...generated, authorization: `Bearer ${world.keys.scoped}` };
        }
        return generated;
      });

  const queryValue = () =>
    fc.oneof(
      fc.constantFrom(
        "1",
        "10",
        "100",
        "0",
        "101",
        "-1",
        "1e2",
        "",
        "10.5",
        "99999999999999999999",
      ),
      fc.constant(world.pageToken),
      fc.constant(`${world.pageToken}x`),
      fc.constant(world.link.searchParams.get("expires") ?? ""),
      fc.constant(world.link.searchParams.get("signature") ?? ""),
      fc.constant(world.link.searchParams.get("kid") ?? ""),
      printable(30),
    );

  const query = () =>
    fc.oneof(
      // The download link's own query, so that the file route gets past its signature check.
      fc.constant(world.link.search.slice(1)),
      fc.constantFrom("limit=2", `limit=3&starting_after=${encodeURIComponent(world.pageToken)}`),
      randomQuery(),
    );

  const randomQuery = () =>
    fc
      .array(
        fc.tuple(
          fc.constantFrom("limit", "starting_after", "expires", "signature", "kid", "x"),
          queryValue(),
        ),
        { maxLength: 4 },
      )
      .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&"));

  const body = () =>
    fc.oneof(
      fc.constant(undefined),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            name: fc.oneof(printable(20), fc.integer()),
            partner_customer_id: fc.oneof(printable(300), fc.integer(), fc.constant(null)),
            environment: fc.constantFrom("sandbox", "production", "moon"),
            scopes: fc.oneof(fc.array(fc.constantFrom("ACCOUNT_READ", "NOPE")), printable(10)),
            version: fc.constantFrom(...bundle.versions.map((v) => v.id), "1999-01-01"),
            statements: fc.array(
              fc.record(
                {
                  statement_id: fc.oneof(segment(), fc.integer()),
                  account_id: fc.constantFrom(world.fixture.accountId, "acc_none"),
                  period_end_date: fc.oneof(httpDate(), fc.constant("2024-01-31T00:00:00Z")),
                  statement_balance: fc.oneof(fc.integer(), fc.double(), printable(5)),
                },
                { requiredKeys: [] },
              ),
              { maxLength: 3 },
            ),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      anyText(200),
      fc.constant("%PDF-1.4\n%%EOF\n"),
    );

  /** A request to a registered route with generated parts, or to a path nothing registers. */
  const requests = () =>
    fc
      .record({
        target: fc.oneof(
          // A registered route with its own method,
          {
            weight: 6,
            arbitrary: fc
              .constantFrom(...registeredRoutes())
              .chain(({ method, path }) =>
                fillPattern(path, method).map((filled) => ({ method, path: filled })),
              ),
          },
          // with any other method,
          {
            weight: 2,
            arbitrary: fc
              .tuple(fc.constantFrom(...METHODS), fc.constantFrom(...routePatterns()))
              .chain(([method, path]) =>
                fillPattern(path, method).map((filled) => ({ method, path: filled })),
              ),
          },
          // the download link, with its conditional and range headers,
          {
            weight: 1,
            arbitrary: fc.constantFrom("GET", "HEAD").map((method) => ({
              method,
              path: world.link.pathname,
              query: world.link.search.slice(1),
            })),
          },
          // or a path nothing registers.
          fc.record({
            method: fc.constantFrom(...METHODS),
            path: fc
              .array(segment(), { minLength: 1, maxLength: 5 })
              .chain((segments) =>
                fc
                  .constantFrom("/v2/", "/operator/v1/", "/files/statements/", "/", "/docs/")
                  .map((prefix) => `${prefix}${segments.join("/")}`),
              ),
          }),
        ),
        query: query(),
        headers: headers(),
        body: body(),
      })
      .map(({ target, query, ...rest }) => ({
        method: target.method,
        path: target.path,
        query: "query" in target ? String(target.query) : query,
        ...rest,
      }));

  /** The fixture's value for each path parameter, so that a request can reach a handler's end. */
  function coherent(name: string, method: string): string {
    const f = world.fixture;
    const values: Record<string, string> = {
      customer_id: f.customerId,
      account_id: f.accountId,
      // Writes (hide, upload) go to another statement, so that the linked one stays downloadable.
      statement_id: ["GET", "HEAD"].includes(method) ? world.statementId : `${f.accountId}_st_001`,
      partner_id: f.partnerId,
      key_id: world.sacrificialKeyId,
      environment: "sandbox",
      file: `${OLDEST}.json`,
    };
    return values[name] ?? "x";
  }

  function fillPattern(pattern: string, method = "GET"): fc.Arbitrary<string> {
    const names = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    if (names.length === 0) return fc.constant(pattern);
    const fill = (values: string[]) =>
      names.reduce((path, name, i) => path.replace(`:${name}`, values[i] as string), pattern);
    return fc.oneof(
      fc.constant(fill(names.map((name) => coherent(name, method)))),
      fc.tuple(...names.map(() => segment())).map(fill),
    );
  }

  return requests();
}
