// Events as the API answers them: one event, a page of them, and the event types of a version.
import * as z from "zod";
import { listOf, resource, timestamp, tokenPageOf } from "../canonical/schemas";
import { EVENT_TYPES } from "../domain/event";
import { Statement } from "../statements";

export const Event = resource(
  "Event",
  z
    .object({
      event_id: z.string().describe("Unique identifier; the `webhook-id` of its deliveries."),
      type: z
        .enum(EVENT_TYPES)
        .describe(
          "`statement.created`: a closed statement became readable. " +
            "`statement.pdf_available`: its PDF can now be linked. " +
            "`statement.hidden`: the statement left every read. `statement.restated`: a " +
            "correction replaced the statement (`data.statement.restated_by` names it); the " +
            "correction announces itself with `statement.created`.",
        ),
      created_at: timestamp("When the change happened"),
      // The registered Statement itself (not a described copy), so that each version's document
      // refers to that version's Statement.
      data: z
        .object({ statement: Statement.schema })
        .describe(
          "`statement` is the statement as it reads when the event is read or delivered: `as_of` " +
            "and the PDF link are that moment's; a statement hidden since shows its identifiers only.",
        ),
    })
    .describe("Something that happened to a statement; kept 30 days."),
);

export const EventList = resource(
  "EventList",
  tokenPageOf(Event.schema, "Events of the page, newest first."),
);

const EventTypeSchema = z.object({
  type: z.string().describe("The type, as this API version names it."),
  description: z.string().describe("What an event of this type announces."),
});

export const EventTypeList = resource("EventTypeList", listOf(EventTypeSchema));

/** This feature's schemas, in the reference's order. */
export const schemas = [Event, EventList, EventTypeList];
