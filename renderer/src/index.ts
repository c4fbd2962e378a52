// The statement renderer Worker: renders documents for the API Worker over a Service Binding
// (RPC). Stateless: it reads and stores nothing; the caller stores the bytes it gets back.
import { WorkerEntrypoint } from "cloudflare:workers";
import { renderStatementDocument } from "./render-statement";
import type { StatementDocumentInput } from "./statement-document";

export type { StatementDocumentInput } from "./statement-document";

export class StatementRenderer extends WorkerEntrypoint {
  /** The statement's PDF. Throws (to the caller) on input it cannot render. */
  render(input: StatementDocumentInput): Promise<Uint8Array> {
    return renderStatementDocument(input);
  }
}

/** No public surface: anything reaching the Worker over HTTP is not found. */
export default {
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler;
