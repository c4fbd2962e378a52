// What the local run shows of the runtime's own log. workerd reports an outbound fetch whose DNS
// lookup or TLS handshake failed as an internal error, with a native stack, on top of the error it
// hands the Worker; the Worker already logs each such webhook attempt as one line with its reason
// (src/webhook-deliveries/deliver.ts), so the runtime's report is dropped. Anything else passes.
import { stripVTControlCharacters } from "node:util";

/** The first line of workerd's report, as wrangler prints it. */
const FETCH_FAILURE =
  /\[ERROR\] (?:e|exception) = \S+: (?:failed|disconnected): (?:failed to lookup address information|TLS handshake failed)/;
/** The report's last line names its internal error reference. */
const REPORT_END = /sentryErrorContext = jsgInternalError|wdErrId = /;
/** A report is a few lines; past this many, the filter stops dropping whatever the format. */
const MAX_REPORT_LINES = 8;

/** A per-stream filter: answers whether a line of wrangler's output should be shown. */
export function runtimeLogFilter(): (line: string) => boolean {
  let reportLines = 0;
  let afterReport = false;
  return (raw) => {
    const line = stripVTControlCharacters(raw);
    if (FETCH_FAILURE.test(line)) {
      reportLines = 1;
      afterReport = false;
      return false;
    }
    if (reportLines > 0) {
      reportLines = REPORT_END.test(line) || reportLines >= MAX_REPORT_LINES ? 0 : reportLines + 1;
      afterReport = reportLines === 0;
      return false;
    }
    // wrangler follows a report with blank lines.
    if (afterReport && line.trim() === "") return false;
    afterReport = false;
    return true;
  };
}
