// The routes of one API version as methods of resource classes, named from the path as REST
// reads it, so that a route keeps its name whatever routes come after it:
//   GET  /v2/customers/{c}/accounts            → client.accounts.list(c)
//   GET  /v2/customers/{c}/accounts/{a}        → client.accounts.retrieve(c, a)
//   POST /v2/customers/{c}/link (linkPartner…) → client.customers.link(c, …): the operation's verb
//                                                names the last segment, so it is an action
//   POST /v2/simulations/customers             → client.simulations.customers.create(…)
// Names are first come, first served, in the reference's order (routes are added at the end): a
// later route whose name is taken hangs under its owner instead, so that adding it renames nothing:
//   GET  /v2/events/{e}/delivery_attempts            → client.delivery_attempts.list(e)
//   GET  /v2/webhook_endpoints/{w}/delivery_attempts → client.webhook_endpoints.delivery_attempts.list(w)
// A list whose answer pages (`data` + `has_more`, and `starting_after`) returns a Pager.

import {
  type Document,
  docstring,
  HTTP_METHODS,
  identifier,
  type Operation,
  type Parameter,
  pascal,
  pyString,
  resolve,
  type Schema,
  snake,
  successBody,
  words,
  wrapped,
} from "./openapi.ts";
import type { Models } from "./python-models.ts";

interface Argument {
  /** The Python parameter. */
  name: string;
  /** The name on the wire. */
  wire: string;
  type: string;
  required: boolean;
  description?: string;
}

export interface Route {
  method: string;
  path: string;
  operationId: string;
  /** `["simulations", "customers"]`: where the method hangs below the client. */
  resource: string[];
  name: string;
  code: string;
}

/** Where a route's method hangs and its name, from the path and the operation's verb. */
export function placeOf(path: string, method: string, op: Operation): [string[], string] {
  const parts = path.split("/").filter(Boolean);
  if (/^v\d+$/.test(parts[0] ?? "")) parts.shift();
  // Each literal segment, and whether an id follows it (an owner) or not (a namespace).
  const segments = parts.flatMap((part, i) =>
    part.startsWith("{") ? [] : [{ name: part, owner: parts[i + 1]?.startsWith("{") ?? false }],
  );
  const trailingId = parts.at(-1)?.startsWith("{") ?? false;
  const last = segments.at(-1);
  if (!last) throw new Error(`${method.toUpperCase()} ${path}: no resource in the path`);
  const verb = words(op.operationId)[0];
  const action = segments.length > 1 && words(last.name)[0] === verb;
  const resourceSegments = action ? segments.slice(0, -1) : segments;
  const resource = [resourceSegments.at(-1)?.name ?? ""];
  for (let i = resourceSegments.length - 2; i >= 0 && !resourceSegments[i]?.owner; i--) {
    resource.unshift(resourceSegments[i]?.name ?? "");
  }
  let name: string;
  if (action) name = last.name;
  else if (method === "get") name = trailingId ? "retrieve" : "list";
  else if (method === "post") name = trailingId ? "update" : "create";
  else if (method === "delete") name = "delete";
  else name = "update";
  return [resource.map((r) => snake(r)), snake(name)];
}

/**
 * Where a route hangs when its own place is taken: below the segment that owns its resource
 * (`webhook_endpoints` for `/v2/webhook_endpoints/{id}/delivery_attempts`); null without one.
 */
export function ownedPlace(path: string, resource: readonly string[]): string[] | null {
  const parts = path.split("/").filter(Boolean);
  const first = parts.findIndex((part) => snake(part) === resource[0]);
  const owner = first >= 2 && parts[first - 1]?.startsWith("{") ? parts[first - 2] : undefined;
  return owner && !owner.startsWith("{") ? [snake(owner), ...resource] : null;
}

/** Every route of a version, its method's code included. */
export function routesOf(doc: Document, models: Models, brand: string): Route[] {
  const routes: Route[] = [];
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      let [resource, name] = placeOf(path, method, op);
      let where = [...resource, name].join(".");
      const taken = seen.get(where);
      const owned = taken ? ownedPlace(path, resource) : null;
      if (owned) {
        resource = owned;
        where = [...resource, name].join(".");
      }
      const clash = seen.get(where);
      if (clash) {
        throw new Error(
          `${method.toUpperCase()} ${path} and ${clash} would both be client.${where}: ` +
            "give the Python generator's placeOf a rule for them",
        );
      }
      seen.set(where, `${method.toUpperCase()} ${path}`);
      const code = methodCode(doc, models, brand, path, method, op, name);
      routes.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        resource,
        name,
        code,
      });
    }
  }
  return routes;
}

/** The type of a request value: objects are plain dicts (or models) on the way in. */
function requestType(schema: Schema | undefined, doc: Document): string {
  if (!schema) return "Any";
  const s = resolve(doc, schema);
  const literals = s.const !== undefined ? [s.const] : s.enum;
  if (literals?.every((v) => typeof v === "string" || typeof v === "number")) {
    return `Literal[${literals.map((v) => JSON.stringify(v)).join(", ")}]`;
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "string":
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "array":
      return `List[${requestType(s.items, doc)}]`;
    case "object":
      return "Dict[str, Any]";
  }
  return "Any";
}

function methodCode(
  doc: Document,
  models: Models,
  brand: string,
  path: string,
  method: string,
  op: Operation,
  name: string,
): string {
  const params = (op.parameters ?? []).map((p) => resolve<Parameter>(doc, p));
  const header = (n: string) => n.toLowerCase();
  const idempotent = params.some((p) => p.in === "header" && header(p.name) === "idempotency-key");
  const handled = new Set([`x-${brand}-version`, `x-${brand}-merchant-key`, "idempotency-key"]);
  const taken = new Set(["self", "version", "timeout", ...(idempotent ? ["idempotency_key"] : [])]);
  const argument = (wire: string, schema: Schema | undefined, required: boolean, d?: string) => {
    const arg: Argument = {
      name: identifier(snake(wire), taken),
      wire,
      type: requestType(schema, doc),
      required,
      ...(d ? { description: d } : {}),
    };
    taken.add(arg.name);
    return arg;
  };
  // Path parameters in the order the path has them: positional, as `list(customer_id, …)`.
  const order = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? "");
  const byName = new Map(params.filter((p) => p.in === "path").map((p) => [p.name, p]));
  const pathArgs = order.map((n) =>
    argument(n, byName.get(n)?.schema, true, byName.get(n)?.description),
  );
  const queryArgs = params
    .filter((p) => p.in === "query")
    .map((p) => argument(p.name, p.schema, p.required ?? false, p.description));
  const headerArgs = params
    .filter((p) => p.in === "header" && !handled.has(header(p.name)))
    .map((p) => argument(p.name, p.schema, p.required ?? false, p.description));
  const bodySchema = op.requestBody
    ? resolve(doc, op.requestBody).content?.["application/json"]?.schema
    : undefined;
  const body = bodySchema ? resolve(doc, bodySchema) : undefined;
  const requiredFields = new Set(body?.required ?? []);
  const bodyArgs = body?.properties
    ? Object.entries(body.properties).map(([wire, s]) =>
        argument(wire, s, requiredFields.has(wire), resolve(doc, s).description),
      )
    : body
      ? [argument("body", { type: "object" }, false, "The request body.")]
      : [];

  // What it answers: a model, a pager of models, or nothing.
  const success = successBody(op, doc);
  const hint = `${pascal(op.operationId)}Response`;
  const answer = success.schema ? models.typeOf(success.schema, hint) : "None";
  const page = success.schema ? resolve(doc, success.schema) : undefined;
  const items = page?.properties?.data?.items;
  const paged =
    method === "get" &&
    page?.properties?.has_more !== undefined &&
    items !== undefined &&
    queryArgs.some((a) => a.wire === "starting_after");
  const itemType = items ? models.typeOf(items, `${answer}Item`) : "Any";
  const itemId =
    paged && page?.properties?.next_page_token === undefined ? idOf(doc, path, items) : null;
  if (paged && page?.properties?.next_page_token === undefined && itemId === null) {
    throw new Error(`${op.operationId}: a list without next_page_token, and no id to page by`);
  }

  const keywordArgs = [...queryArgs, ...headerArgs, ...bodyArgs];
  const signature = [
    "        self,",
    ...pathArgs.map((a) => `        ${a.name}: ${a.type},`),
    "        *,",
    ...keywordArgs.filter((a) => a.required).map((a) => `        ${a.name}: ${a.type},`),
    ...keywordArgs
      .filter((a) => !a.required)
      .map((a) => `        ${a.name}: Optional[${a.type}] = None,`),
    ...(idempotent ? ["        idempotency_key: Optional[str] = None,"] : []),
    "        version: Optional[str] = None,",
    "        timeout: Optional[float] = None,",
  ];
  const returns = paged ? `Pager[${itemType}]` : answer;
  const summary = op.summary ?? op.operationId;
  const about = [/[.!?]$/.test(summary) ? summary : `${summary}.`, op.description ?? ""];
  about.push(
    paged
      ? `Every item, across as many pages as it takes (\`${method.toUpperCase()} ${path}\`): ` +
          "iterate the Pager; `limit` is the page size."
      : `\`${method.toUpperCase()} ${path}\`.`,
  );
  const documented = [...pathArgs, ...keywordArgs].filter((a) => a.description);
  const argsDoc =
    documented.length > 0
      ? [
          "        Args:",
          ...documented.flatMap((a) =>
            wrapped(`${a.name}: ${a.description}`, "            ").map((l, i) =>
              i === 0 ? l : `    ${l}`,
            ),
          ),
        ]
      : [];
  // A dict on one line when it fits in 100 columns with what precedes it, else one item a line.
  const dict = (key: string, args: Argument[]) => {
    const items = args.map((a) => `${pyString(a.wire)}: ${a.name}`);
    const line = `            ${key}={${items.join(", ")}},`;
    if (line.length <= 100) return [line];
    return [`            ${key}={`, ...items.map((i) => `                ${i},`), "            },"];
  };
  const call = paged
    ? [
        "        return self._client._page(",
        `            ${pyString(path)},`,
        ...dict("path_params", pathArgs),
        ...dict("query", queryArgs),
        `            model=${pyString(answer)},`,
        ...(itemId ? [`            item_id=${pyString(itemId)},`] : []),
      ]
    : [
        "        return self._client._request(",
        `            ${pyString(method.toUpperCase())},`,
        `            ${pyString(path)},`,
        ...(pathArgs.length > 0 ? dict("path_params", pathArgs) : []),
        ...(queryArgs.length > 0 ? dict("query", queryArgs) : []),
        ...(headerArgs.length > 0 ? dict("headers", headerArgs) : []),
        ...(body?.properties
          ? dict("body", bodyArgs)
          : body
            ? ["            body=body or {},"]
            : []),
        ...(answer !== "None" && /^[A-Z]\w*$/.test(answer)
          ? [`            model=${pyString(answer)},`]
          : []),
        ...(idempotent
          ? ["            idempotent=True,", "            idempotency_key=idempotency_key,"]
          : []),
      ];
  return [
    `    def ${name}(`,
    ...signature,
    `    ) -> ${returns}:`,
    docstring(about.filter(Boolean).join("\n\n"), "        ", argsDoc),
    ...call,
    "            version=version,",
    "            timeout=timeout,",
    "        )",
  ].join("\n");
}

/** The field a list's items are paged by: the id they are retrieved by, else their first `…_id`. */
function idOf(doc: Document, path: string, items: Schema | undefined): string | null {
  if (!items) return null;
  const item = resolve(doc, items);
  const required = item.required ?? [];
  // The id its items are retrieved by (`{path}/{id}`), when the item carries it; else its `…_id`.
  const retrievedBy = Object.keys(doc.paths)
    .map((other) =>
      other.startsWith(`${path}/{`) ? /^\{(\w+)\}$/.exec(other.slice(path.length + 1)) : null,
    )
    .find((match) => match !== null)?.[1];
  if (retrievedBy !== undefined && required.includes(retrievedBy)) return retrievedBy;
  return required.find((f) => f.endsWith("_id")) ?? null;
}
