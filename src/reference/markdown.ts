// Markdown of the reference (descriptions, the changelog) rendered on the server, safely: raw
// HTML in the source comes out as text, and links only to the web, mail or this service.

import { raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { Marked } from "marked";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** http(s), mailto, a path on this service, or a fragment; never `javascript:` and the like. */
const SAFE_HREF = /^(https?:\/\/|mailto:|\/(?!\/)|#)/i;

const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      if (!SAFE_HREF.test(href)) return text;
      const titled = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(href)}"${titled}>${text}</a>`;
    },
    // Pages load nothing from elsewhere: an image is shown as its alternative text.
    image: ({ text }) => escapeHtml(text),
  },
});

/** Block Markdown (paragraphs, lists, quotes) as HTML. */
export function renderMarkdown(text: string): HtmlEscapedString {
  return raw(markdown.parse(text, { async: false }));
}

/** Inline Markdown (code spans, emphasis, links) as HTML, for table cells and headings. */
export function renderInlineMarkdown(text: string): HtmlEscapedString {
  return raw(markdown.parseInline(text, { async: false }));
}
