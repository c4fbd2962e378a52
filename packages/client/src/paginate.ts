// Auto-pagination: every item of a list, fetching each next page only when the previous one is
// used up. Statements and events page by signed token, the other lists by the last object's id.

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_page_token?: string;
}

/** Every item of every page, fetching the next page only when the previous one is used up. */
export async function* everyItem<T>(
  fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>,
  cursorOf: (page: Page<T>) => string | undefined,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    if (!page.has_more) return;
    cursor = cursorOf(page);
    if (cursor === undefined) return;
  }
}

export const byToken = <T>(page: Page<T>) => page.next_page_token;
export const byLastId =
  <T>(id: (item: T) => string) =>
  (page: Page<T>) => {
    const last = page.data.at(-1);
    return last === undefined ? undefined : id(last);
  };
