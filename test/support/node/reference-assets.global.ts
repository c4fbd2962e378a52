// vitest global setup: the static assets hold the interactive reference before any test runs,
// even when vitest is started directly rather than through `npm test`.
import { copyReferenceAssets } from "../../../scripts/reference-assets.ts";

export default function setup(): void {
  copyReferenceAssets();
}
