// Counts in the dashboard's text, so that one of a thing never reads as several.

/**
 * The count with its noun, singular for exactly one and plural otherwise. The plural is the noun
 * and an "s" unless it is given.
 *
 * @example
 * plural(1, "request"); // "1 request"
 * plural(1204, "request"); // "1,204 requests"
 * plural(2, "delivery", "deliveries"); // "2 deliveries"
 */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count.toLocaleString("en")} ${count === 1 ? noun : pluralNoun}`;
}
