// Contract check of every /v2 response against the OpenAPI reference of its version: the body must
// match the documented schema of the operation and status, with no field the reference omits,
// and its fields must come in the order the reference lists them.

import { dereference, type Schema, validate } from "@cfworker/json-schema";
import { bundle } from "../../src/bundle";
import type { Json } from "./json";
import { BASE, type Fetcher, serviceFetch } from "./worker";

const VERSION_HEADER = "x-service-version";

interface Reference {
  doc: Json;
  lookup: Record<string, Schema | boolean>;
  operations: { pattern: RegExp; literals: number; path: string; methods: Json }[];
}

/** Per app (by its fetch function), per version and environment. */
const references = new Map<Fetcher, Map<string, Promise<Reference>>>();

/** Whose keys a response answered: each environment has its own reference of a version. */
export type KeyEnvironment = "sandbox" | "production";

/** The environment of the key an `Authorization` header sends (Bearer or Basic). */
export function keyEnvironment(authorization: string | null | undefined): KeyEnvironment {
  const [scheme = "", credentials = ""] = (authorization ?? "").trim().split(/ +/);
  let key = credentials;
  if (scheme.toLowerCase() === "basic") {
    try {
      key = atob(credentials);
    } catch {
      key = "";
    }
  }
  return key.startsWith("sk_live_") ? "production" : "sandbox";
}

/** The reference closes every object: a field it does not document is drift, not an extension. */
function closeObjects(schema: Json): void {
  if (Array.isArray(schema)) {
    for (const item of schema) closeObjects(item);
    return;
  }
  if (typeof schema !== "object" || schema === null) return;
  if (schema.properties && schema.additionalProperties === undefined) {
    schema.additionalProperties = false;
  }
  for (const child of Object.values(schema)) closeObjects(child);
}

async function loadReference(
  version: string,
  environment: KeyEnvironment,
  fetcher: Fetcher,
): Promise<Reference> {
  const query = environment === "sandbox" ? "" : `?environment=${environment}`;
  const res = await fetcher(new Request(`${BASE}/openapi/${version}.json${query}`));
  if (res.status !== 200) {
    throw new Error(`no reference for version ${JSON.stringify(version)}: ${res.status}`);
  }
  const doc: Json = await res.json();
  closeObjects(doc.components.schemas);
  const root = { $id: `https://reference.test/${version}.json`, ...doc };
  const lookup = dereference(root);
  const operations = Object.entries<Json>(doc.paths).map(([path, methods]) => {
    const segments = path.split("/");
    const pattern = segments.map((s) => (s.startsWith("{") ? "[^/]+" : escapeRegExp(s)));
    return {
      pattern: new RegExp(`^${pattern.join("/")}$`),
      literals: segments.filter((s) => !s.startsWith("{")).length,
      path,
      methods,
    };
  });
  // The root is a copy whose nodes carry the resolved references; operations point into it.
  return {
    doc: root,
    lookup,
    operations: operations.map((o) => ({ ...o, methods: root.paths[o.path] })),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function referenceOf(
  version: string,
  fetcher: Fetcher,
  environment: KeyEnvironment = "sandbox",
): Promise<Reference> {
  let ofApp = references.get(fetcher);
  if (!ofApp) {
    ofApp = new Map();
    references.set(fetcher, ofApp);
  }
  let reference = ofApp.get(`${version} ${environment}`);
  if (!reference) {
    reference = loadReference(version, environment, fetcher);
    ofApp.set(`${version} ${environment}`, reference);
  }
  return reference;
}

function fail(what: string, detail: string): never {
  throw new Error(`Response drifts from its reference: ${what}: ${detail}`);
}

/** The documented response of an operation for a status, with shared responses resolved. */
function documentedResponse(ref: Reference, operation: Json, status: number): Json | undefined {
  const response = operation.responses[String(status)] ?? operation.responses.default;
  const name = /^#\/components\/responses\/(.+)$/.exec(response?.$ref ?? "")?.[1];
  return name === undefined ? response : ref.doc.components.responses[name];
}

/** The named schema a `$ref` points to, or the schema itself. */
function resolved(ref: Reference, schema: Json): Json {
  const name = /^#\/components\/schemas\/(.+)$/.exec(schema?.$ref ?? "")?.[1];
  return name === undefined ? schema : ref.doc.components.schemas[name];
}

/** Fails when an object's fields come in another order than its schema lists them. */
function checkOrder(ref: Reference, schemaOrRef: Json, body: unknown, where: string, what: string) {
  const schema = resolved(ref, schemaOrRef);
  if (typeof schema !== "object" || schema === null) return;
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const branch = branches.find(
      (b: Json) => validate(body, b, "2020-12", ref.lookup, false).valid,
    );
    if (branch) checkOrder(ref, branch, body, where, what);
    return;
  }
  if (Array.isArray(body)) {
    for (const [i, item] of body.entries()) {
      checkOrder(ref, schema.items, item, `${where}[${i}]`, what);
    }
    return;
  }
  if (typeof body !== "object" || body === null || !schema.properties) return;
  const order = Object.keys(schema.properties);
  const keys = Object.keys(body).filter((key) => order.includes(key));
  for (let i = 1; i < keys.length; i++) {
    if (order.indexOf(keys[i] as string) < order.indexOf(keys[i - 1] as string)) {
      fail(
        what,
        `${where || "/"}: fields ${keys.join(", ")} are not in the reference's order ${order.join(", ")}`,
      );
    }
  }
  for (const key of keys) {
    checkOrder(ref, schema.properties[key], (body as Json)[key], `${where}/${key}`, what);
  }
}

function checkBody(ref: Reference, schema: Json, text: string, what: string): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail(what, `the body is not JSON: ${text.slice(0, 200)}`);
  }
  const result = validate(body, schema, "2020-12", ref.lookup, false);
  if (!result.valid) {
    const problems = result.errors.map((e) => `${e.instanceLocation || "/"} ${e.error}`);
    fail(what, `${problems.slice(0, 8).join("; ")}\nbody: ${text.slice(0, 1000)}`);
  }
  checkOrder(ref, schema, body, "", what);
}

/** Fails when a /v2 response does not match the reference of its version for the key's environment. */
export async function assertMatchesReference(
  path: string,
  method: string,
  response: Response,
  fetcher: Fetcher = serviceFetch,
  environment: KeyEnvironment = "sandbox",
): Promise<void> {
  const url = new URL(path, BASE);
  // A CORS preflight is not an operation of the API.
  if (!url.pathname.startsWith("/v2/") || method.toUpperCase() === "OPTIONS") return;
  const verb = method.toUpperCase() === "HEAD" ? "get" : method.toLowerCase();
  const what = `${method.toUpperCase()} ${url.pathname} → ${response.status}`;
  const text = await response.text();
  const version = response.headers.get(VERSION_HEADER);
  const type = response.headers.get("content-type") ?? "";

  if (version === null) {
    // Rejected before a version is chosen: bad credentials (or too many of them), an
    // unsupported version, or storage unavailable while authenticating.
    if (![400, 401, 429, 503].includes(response.status)) {
      fail(what, `a response after version resolution must carry ${VERSION_HEADER}`);
    }
    if (!type.startsWith("application/json")) fail(what, `content-type ${type}`);
    if (method.toUpperCase() === "HEAD") return;
    // Sent before a version is chosen: the canonical envelope, as the newest version has it.
    const ref = await referenceOf(bundle.versions[0]?.id as string, fetcher);
    checkBody(ref, ref.doc.components.schemas.ApiError, text, `${what} (no version)`);
    return;
  }

  const ref = await referenceOf(version, fetcher, environment);
  const matches = ref.operations
    .filter((o) => o.pattern.test(url.pathname) && o.methods[verb])
    .sort((a, b) => b.literals - a.literals);
  const operation = matches[0]?.methods[verb];
  let schema: Json;
  if (!operation) {
    // No such operation: the only documented answer is the route-not-found ApiError.
    if (response.status !== 404) fail(what, `no operation in version ${version}`);
    schema = ref.doc.components.schemas.ApiError;
  } else {
    const documented = documentedResponse(ref, operation, response.status);
    if (!documented) fail(what, `status not documented for this operation in ${version}`);
    schema = documented.content?.["application/json"]?.schema;
    if (!schema) {
      if (text !== "") fail(what, "the reference documents no body");
      return;
    }
  }
  if (method.toUpperCase() === "HEAD") return;
  if (!type.startsWith("application/json")) fail(what, `content-type ${type}`);
  checkBody(ref, schema, text, `${what} (version ${version})`);
}
