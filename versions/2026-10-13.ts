// 2026-10-13: changes elsewhere in the API; nothing on the endpoints this service serves.
import type { ApiVersion } from "../src/version-changes";

export const v2026_10_13: ApiVersion = {
  id: "2026-10-13",
  released: true,
  summary: "No change to the endpoints served here: responses are those of 2025-05-05.",
  changes: [],
};
