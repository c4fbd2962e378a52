// The renderer's caller in tests and local runs: POST a statement document's input as JSON (the
// logo's bytes as base64) and get its PDF, rendered over the Service Binding.
import type { StatementDocumentInput } from "../src/statement-document";

type WireInput = Omit<StatementDocumentInput, "product"> & {
  product: Omit<StatementDocumentInput["product"], "logo"> & {
    logo?: Omit<NonNullable<StatementDocumentInput["product"]["logo"]>, "bytes"> & {
      base64: string;
    };
  };
};

export default {
  async fetch(request, env) {
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const { product, ...rest } = (await request.json()) as WireInput;
    const { logo, ...presentation } = product;
    const input: StatementDocumentInput = {
      ...rest,
      product: logo
        ? {
            ...presentation,
            logo: {
              media_type: logo.media_type,
              alt_text: logo.alt_text,
              bytes: Uint8Array.from(atob(logo.base64), (c) => c.charCodeAt(0)),
            },
          }
        : presentation,
    };
    const pdf = await env.STATEMENT_RENDERER.render(input);
    return new Response(pdf, { headers: { "content-type": "application/pdf" } });
  },
} satisfies ExportedHandler<Cloudflare.Env>;
