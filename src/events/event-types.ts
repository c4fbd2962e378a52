// Event types as each API version names them. A version change may show a newer type as an older
// one (a new enum value is a breaking change), so an endpoint pinned to a version receives each
// event under the type its version shows, and its filter names types of that version. The type a
// version shows is never looked up in a table: it is read off the event reshaped through the
// version bundle, so any change the bundle holds is honoured, whatever it renames or folds.
import {
  EVENT_TYPE_DESCRIPTIONS,
  EVENT_TYPES,
  type EventType,
  type StatementEvent,
} from "../domain/event";
import { storedEventTypes } from "../domain/webhook-endpoint";
import { isJsonObject, type VersionBundle } from "../versioning";

/**
 * The canonical types known to this build. A filter worked out under another list is re-derived
 * before the fan-out trusts it (a type added since may be shown to the endpoint as one it takes).
 */
export const EVENT_TYPES_REVISION = EVENT_TYPES.join(" ");

/** One entry of a version's catalogue of event types. */
export interface EventTypeEntry {
  type: string;
  description: string;
}

interface VersionView {
  /** Canonical type → the type this version shows. */
  seen: ReadonlyMap<EventType, string>;
  /** The version's types, in canonical order, each once. */
  catalogue: readonly EventTypeEntry[];
}

const views = new WeakMap<VersionBundle, Map<string, VersionView>>();

/** The smallest event of a type: what the bundle reshapes to tell the type a version shows. */
function probe(type: EventType): StatementEvent {
  return {
    event_id: "evt_probe",
    type,
    created_at: "2026-01-01T00:00:00.000Z",
    data: {
      statement: {
        statement_id: "st_probe",
        customer_id: "cus_probe",
        account_id: "acc_probe",
        as_of: "2026-01-01T00:00:00.000Z",
      },
    },
  };
}

const PROBE_CONTEXT = { path: "", status: 200, timestamp: "2026-01-01T00:00:00.000Z" };

function viewOf(bundle: VersionBundle, version: string): VersionView {
  let byVersion = views.get(bundle);
  if (!byVersion) {
    byVersion = new Map();
    views.set(bundle, byVersion);
  }
  let view = byVersion.get(version);
  if (!view) {
    if (!bundle.versionOf(version)) throw new Error(`unknown version ${version}`);
    const seen = new Map<EventType, string>();
    for (const type of EVENT_TYPES) {
      const event = bundle.transform(version, "Event", probe(type), PROBE_CONTEXT);
      const shown = isJsonObject(event) ? event.type : undefined;
      seen.set(type, typeof shown === "string" ? shown : type);
    }
    const catalogue: EventTypeEntry[] = [];
    for (const shown of new Set(seen.values())) {
      // Described as the canonical type of that name, or else the first one shown under it.
      const source =
        EVENT_TYPES.find((t) => t === shown && seen.get(t) === shown) ??
        EVENT_TYPES.find((t) => seen.get(t) === shown);
      catalogue.push({
        type: shown,
        description: source ? EVENT_TYPE_DESCRIPTIONS[source] : "",
      });
    }
    view = { seen, catalogue };
    byVersion.set(version, view);
  }
  return view;
}

/** The type under which `version` shows an event of canonical type `type`. */
export function typeSeenIn(bundle: VersionBundle, version: string, type: EventType): string {
  return viewOf(bundle, version).seen.get(type) ?? type;
}

/** The event types of `version`, with their descriptions, in canonical order. */
export function eventTypesOf(bundle: VersionBundle, version: string): readonly EventTypeEntry[] {
  return viewOf(bundle, version).catalogue;
}

/**
 * The canonical types whose events `version` shows under one of `types` (types of that version):
 * what a filter of that version lets through, or what a list filtered by type reads.
 */
export function canonicalTypesFor(
  bundle: VersionBundle,
  version: string,
  types: readonly string[],
): EventType[] {
  const wanted = new Set(types);
  return EVENT_TYPES.filter((type) => wanted.has(typeSeenIn(bundle, version, type)));
}

/** The types of `requested` that `version` does not have, in the order given. */
export function unknownEventTypes(
  bundle: VersionBundle,
  version: string,
  requested: readonly string[],
): string[] {
  const known = new Set(eventTypesOf(bundle, version).map((entry) => entry.type));
  return requested.filter((type) => !known.has(type));
}

/**
 * An endpoint's filter as stored: the types it takes in its version's names (null: every type),
 * and the canonical types they stand for under this build's types (null: every type).
 */
export interface StoredFilter {
  enabledEvents: string | null;
  eventTypes: string | null;
  eventTypesRevision: string | null;
}

/** The stored form of `enabled` (types of `version`, or null for every type). */
export function storedFilter(
  bundle: VersionBundle,
  version: string,
  enabled: readonly string[] | null,
): StoredFilter {
  if (enabled === null) return { enabledEvents: null, eventTypes: null, eventTypesRevision: null };
  return {
    enabledEvents: JSON.stringify(enabled),
    eventTypes: JSON.stringify(canonicalTypesFor(bundle, version, enabled)),
    eventTypesRevision: EVENT_TYPES_REVISION,
  };
}

/** Whether an endpoint whose filter is `stored` takes an event its version shows as `shown`. */
export function takesEvent(stored: string | null, shown: string): boolean {
  return stored === null || storedEventTypes(stored).includes(shown);
}
