// 2025-05-05: API 2.0, the first dated version. The oldest version has no changes by definition.
import type { ApiVersion } from "../src/version-changes";

export const v2025_05_05: ApiVersion = {
  id: "2025-05-05",
  released: true,
  summary: "API 2.0: the first dated version, with the /v2 path prefix.",
  changes: [],
};
