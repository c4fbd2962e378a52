// Events: the log of what happened to statements (kept 30 days), its /v2 routes, the event types
// each API version names, and an event as a version shows it. Deliveries to webhook endpoints
// build on it (src/webhook-deliveries/); it knows nothing of them.

export * from "./api-schemas";
export { EVENT_FIELDS, type EventRow, toEventRow } from "./event-store";
export {
  canonicalTypesFor,
  EVENT_TYPES_REVISION,
  type EventTypeEntry,
  eventTypesOf,
  type StoredFilter,
  storedFilter,
  takesEvent,
  typeSeenIn,
  unknownEventTypes,
} from "./event-types";
export { eventInVersion, renderEvent } from "./event-view";
export { retainedEvent, retainedSince } from "./retention";
export * from "./routes";
