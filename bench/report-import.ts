// RESULTS.md's import section: the service's import against its floor as the tables grow, the
// largest accepted body (memory, longest D1 call), and what a stored statement costs in bytes.

import { fixed, mb } from "./format.ts";
import type { ImportResults } from "./import.ts";
import { median } from "./load.ts";

const count = (n: number) => Math.round(n).toLocaleString("en");
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The import's rate ÷ its floor's, per segment of the growth; median and lowest. */
export function importRatio(imports: ImportResults) {
  const rounds = imports.segments.map((s) => s.serviceRate / s.floorRate);
  return { median: median(rounds), lowest: Math.min(...rounds), rounds };
}

/** The line items import's rate ÷ its floor's, per segment of 100,000 line items. */
export function lineItemImportRatio(imports: ImportResults) {
  const rounds = (imports.lineItems?.segments ?? []).map((s) => s.serviceRate / s.floorRate);
  return { median: median(rounds), lowest: Math.min(...rounds), rounds };
}

/** RESULTS.md's part on the line items import arm. */
export function lineItemImportSection(imports: ImportResults): string[] {
  const li = imports.lineItems;
  if (!li) return ["Line items import: not measured in this run.", ""];
  const ratio = lineItemImportRatio(imports);
  const { row, primaryKey, page, type } = li.lineItemBytes;
  return [
    "### Import with line items",
    "",
    `Statements of ${li.lineItemsPerStatement} line items each through the operator import, ` +
      `${count(li.statementsPerRequest)} statements (${count(li.statementsPerRequest * li.lineItemsPerStatement)} ` +
      "line items) a request, against the floor inserting the same rows (each statement, its " +
      "event and each line item) in multi-row INSERTs of up to D1's 100 bound parameters, all in one " +
      "D1 batch, until each " +
      `table holds ${count(li.total)} line items. Rates are line items per second.`,
    "",
    "| line items in each table | import, line items/s | floor, line items/s | import ÷ floor |",
    "| ---: | ---: | ---: | ---: |",
    ...li.segments.map(
      (s) =>
        `| ${count(s.upTo)} | ${count(s.serviceRate)} | ${count(s.floorRate)} | ` +
        `${fixed(s.serviceRate / s.floorRate)} |`,
    ),
    "",
    `- Import ÷ floor: median ${fixed(ratio.median)}, lowest segment ${fixed(ratio.lowest)}; ` +
      `most memory in use during a request ${mb(li.heap.usedBytes)}.`,
    `- Bytes per line item: its row ${count(row)}, primary key ${count(primaryKey)}, ` +
      `statement_line_items_page_idx ${count(page)}, statement_line_items_type_idx ${count(type)} ` +
      `(${count(row + primaryKey + page + type)} in all); the service's database grew ` +
      `${count(li.bytesPerLineItemWithStatement)} bytes per line item, its statement and event shared out.`,
    "",
  ];
}

/** The most memory and the longest D1 call of the largest accepted body, over its runs. */
export function largestPeaks(imports: ImportResults) {
  return {
    memory: Math.max(...imports.largest.map((l) => l.heap.usedBytes)),
    longestD1Ms: Math.max(...imports.largest.map((l) => l.longestD1Ms)),
  };
}

export function importSection(imports: ImportResults): string[] {
  const ratio = importRatio(imports);
  const monthlyMs = imports.service.map((s) => s.ms);
  const largestRows = imports.largest.map(
    (l, i) =>
      `| ${i + 1} | ${mb(l.bytes)} | ${count(l.rowsWritten)} | ${l.d1Queries} | ` +
      `${seconds(l.ms)} | ${seconds(l.longestD1Ms)} | ${mb(l.heap.usedBytes)} |`,
  );
  const { page, id, event } = imports.indexBytesPerStatement;
  const total = imports.bytesPerStatement.floor;
  const perStatement = (samples: { statements: number; rowsWritten: number }[]) =>
    samples.reduce((n, s) => n + s.rowsWritten, 0) / samples.reduce((n, s) => n + s.statements, 0);
  return [
    "## Import",
    "",
    `The operator import of the production bundle against its floor (the floor Worker inserting ` +
      "the same rows, each statement and its `statement.created` event, in multi-row INSERTs of up " +
      "to D1's 100 bound parameters, in one D1 batch per request, with no validation and no " +
      "read), each on " +
      "its own empty database on a second workerd whose V8 " +
      `heap is capped at 128 MB, like a Worker isolate. ${count(imports.total / imports.statementsPerRequest)} ` +
      `requests a side of ${count(imports.statementsPerRequest)} statements (one month of every ` +
      "account), the sides alternating which goes first, until each table holds " +
      `${count(imports.total)} statements. Rates are statements per second of request time.`,
    "",
    "| statements in each table | import, statements/s | floor, statements/s | import ÷ floor |",
    "| ---: | ---: | ---: | ---: |",
    ...imports.segments.map(
      (s) =>
        `| ${count(s.upTo)} | ${count(s.serviceRate)} | ${count(s.floorRate)} | ` +
        `${fixed(s.serviceRate / s.floorRate)} |`,
    ),
    "",
    `- Import ÷ floor: median ${fixed(ratio.median)}, lowest segment ${fixed(ratio.lowest)}.`,
    `- A ${count(imports.statementsPerRequest)}-statement request: median ` +
      `${seconds(median(monthlyMs))}, longest D1 call ` +
      `${seconds(Math.max(...imports.service.map((s) => s.longestD1Ms)))} (the floor's ` +
      `${seconds(Math.max(...imports.floor.map((s) => s.longestD1Ms)))}), most memory in use ` +
      `${mb(imports.monthlyHeap.usedBytes)}.`,
    `- Rows written per imported statement, indexes included (D1's \`rows_written\`): ` +
      `${fixed(perStatement(imports.service), 1)} by the import, ` +
      `${fixed(perStatement(imports.floor), 1)} by the floor.`,
    "",
    "The largest body the import accepts (5,000 items in every section: partners each with a " +
      "product, customers with authorized users filling the body to its 20 MiB limit, accounts, " +
      "statements), three times with new ids. Memory is the most the Worker's isolate held, V8 heap " +
      "in use plus ArrayBuffers, garbage not yet collected included, sampled between JavaScript " +
      "turns through the inspector.",
    "",
    "| run | body | rows written | D1 round trips | request | longest D1 call | most memory in use |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...largestRows,
    "",
    `- With V8's heap capped at ${imports.headroom.capMb} MB, half an isolate's limit, the same ` +
      `body answered ${imports.headroom.status} in ${seconds(imports.headroom.ms)}.`,
    "",
    "Storage, measured on the floor's table (D1's database size before and after the import; each " +
      "index's share by building a copy of it):",
    "",
    `- ${count(total)} bytes per statement: the row ${count(total - page - id - event)}, the id ` +
      `index ${count(id)}, statements_page_idx ${count(page)}, and its \`statement.created\` ` +
      `event with the event's four indexes ${count(event)} (events are purged after 30 days).`,
    `- The service's table: ${count(imports.bytesPerStatement.service)} bytes per statement.`,
    "",
  ];
}
