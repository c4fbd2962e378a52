// What a version module says its changes with: the engine's instructions and change types, typed
// by this API's canonical model, so that a misspelt schema, field, error type or route fails to
// compile (test/versioning/typed-instructions.test.ts holds the proof).

import type { CanonicalFields, RequestName, ResourceName } from "./api-model";
import type { ErrorType } from "./app/errors";
import type { RouteName } from "./routes";
import type * as engine from "./versioning";
import { instructionsFor, isJsonObject, type JsonObject, type JsonValue } from "./versioning";

export { isJsonObject, type JsonObject, type JsonValue } from "./versioning";

/** A breaking change, named in this API's resources and request bodies. */
export type VersionChange = engine.VersionChange<ResourceName, RequestName>;

/** A dated version (or `latest`) and its changes. */
export type ApiVersion = engine.ApiVersion<VersionChange>;

export const { schema, error, endpoint } = instructionsFor<{
  schemas: CanonicalFields;
  errors: ErrorType;
  routes: RouteName;
}>();

/**
 * The `error` member of an ApiError envelope (`{"error":{"type","message","param"?,"details"?}}`),
 * what an error change reads from the body as the next newer version shows it; empty for a body
 * of another shape.
 */
export function errorOf(body: JsonValue): JsonObject {
  return isJsonObject(body) && isJsonObject(body.error) ? body.error : {};
}
