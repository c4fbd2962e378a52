// The version engine, a library that knows versions, changes and instructions and nothing of this
// application. The application hands it its canonical model and its versions: see src/api-model.ts
// and src/bundle.ts.
export { type BundleOptions, createBundle, type VersionBundle } from "./bundle";
export { checkBundle, isCalendarDate } from "./check";
export { UnknownRequestField } from "./errors";
export {
  type FieldThatExists,
  type FieldThatWasRemoved,
  type Instructions,
  instructionsFor,
  type Vocabulary,
} from "./instructions";
export { isJsonObject } from "./reshape";
export type * from "./types";
