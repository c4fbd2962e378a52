// The versions the reference tests tell apart, derived from the bundle by the changes that make
// them differ: a version added to the bundle falls into its group without an edit.
import { versionsBefore, versionsWith } from "./bundle-versions";

/** Versions that predate the pdf object, and those that have it. */
export const WITH_PDF_URL = versionsBefore("replacePdfUrlWithPdfObject");
export const WITH_PDF_OBJECT = versionsWith("replacePdfUrlWithPdfObject");
/** Versions that predate the one error envelope, and one that has it. */
export const FLAT_ERRORS = versionsBefore("useApiErrorEnvelopeForAllErrors");
export const ENVELOPE = versionsWith("useApiErrorEnvelopeForAllErrors")[0] as string;
