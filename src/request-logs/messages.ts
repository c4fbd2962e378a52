// Request-log records into queue messages, sized as the queue sizes them: a message is limited in
// bytes (128 KB of its UTF-8 body), not in the UTF-16 units a JavaScript string counts, so a
// record of multi-byte text takes up to three times its length. Records are packed by their
// bytes; every record fits a message alone (the recorder cuts its text fields to bytes), so
// packing never leaves one out, and a message that would pass the limit is closed before it does.

/** Records a message holds at most. */
export const MAX_RECORDS_PER_MESSAGE = 100;

/**
 * The bytes a message is closed at: below the queue's 128 KB (128,000 bytes as the local queue
 * checks it), with room for what the queue adds around a body.
 */
export const MAX_MESSAGE_BYTES = 120_000;

/** The UTF-8 bytes of well-formed text (a JSON serialisation: its lone surrogates are escaped). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    // A high surrogate and the low one after it are one 4-byte character.
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Takes from the front of `items` (serialised records, or what makes one when first needed) the
 * records of one message, in order: as many as fit MAX_MESSAGE_BYTES and MAX_RECORDS_PER_MESSAGE,
 * and always at least one. What is left stays in `items`, serialised.
 */
export function takeMessage(items: (string | (() => string))[]): string[] {
  const records: string[] = [];
  let bytes = 2;
  while (items.length > 0 && records.length < MAX_RECORDS_PER_MESSAGE) {
    const next = items.shift();
    if (next === undefined) break;
    const record = typeof next === "string" ? next : next();
    const size = utf8Bytes(record) + 1;
    if (records.length > 0 && bytes + size > MAX_MESSAGE_BYTES) {
      items.unshift(record);
      break;
    }
    bytes += size;
    records.push(record);
  }
  return records;
}

/** The serialised records as messages, each within the queue's limits. */
export function asMessages(records: readonly string[]): string[] {
  const left = [...records];
  const messages: string[] = [];
  while (left.length > 0) messages.push(`[${takeMessage(left).join(",")}]`);
  return messages;
}
