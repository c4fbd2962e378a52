// The API's versions, newest first: the unreleased `latest`, then every released date. Each
// module holds the changes its version made; src/bundle.ts builds the bundle from this.
import type { ApiVersion } from "../src/version-changes";
import { v2025_05_05 } from "./2025-05-05";
import { v2026_10_13 } from "./2026-10-13";
import { v2026_11_28 } from "./2026-11-28";
import { latest } from "./latest";

/** Newest first. Adding a version: `npm run version:new -- YYYY-MM-DD` writes both. */
export const VERSIONS: readonly ApiVersion[] = [latest, v2026_11_28, v2026_10_13, v2025_05_05];
