// The service's version bundle, built in one place: the ordered versions of versions/index.ts
// compiled against the canonical model. Sandbox keys may also choose the unreleased versions.
import { VERSIONS } from "../versions";
import { canonicalModel } from "./api-model";
import { PREVIEW_ENVIRONMENT } from "./domain/environment";
import { type ApiVersion, createBundle, type VersionBundle } from "./versioning";

/** A bundle of `versions` over this API's canonical model (tests build bundles of their own). */
export function bundleOf(versions: readonly ApiVersion[]): VersionBundle {
  return createBundle(versions, canonicalModel(), { previewIn: PREVIEW_ENVIRONMENT });
}

/** The bundle the service serves. */
export const bundle: VersionBundle = bundleOf(VERSIONS);
