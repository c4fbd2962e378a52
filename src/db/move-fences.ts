// What the shard-wide work (the maintenance steps, the queue consumers) needs to know of a move's
// fence: while a partner is being moved off a shard, triggers refuse every write to its rows there
// (`move_fences`, src/shards/partner-moves.ts). Work over many partners leaves a fenced partner's
// rows alone, so that one moving partner fails nobody else's work; its rows are handled once the
// move is over, on the shard it lives on then.
import { sql } from "drizzle-orm";

/**
 * SQL: the partners frozen on this shard, whose rows take no write at all, deletes included
 * (`partner_id NOT IN …` leaves them out).
 */
export const FROZEN_PARTNERS = "(SELECT partner_id FROM move_fences WHERE phase = 'frozen')";

/**
 * SQL: the partners fenced on this shard, frozen or with their old copy awaiting retirement (its
 * rows take no insert or update; the move deletes them itself).
 */
export const FENCED_PARTNERS = "(SELECT partner_id FROM move_fences)";

/** `FROZEN_PARTNERS` as a drizzle fragment. */
export const frozenPartners = sql.raw(FROZEN_PARTNERS);

/** `FENCED_PARTNERS` as a drizzle fragment. */
export const fencedPartners = sql.raw(FENCED_PARTNERS);
