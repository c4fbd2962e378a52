// The dashboard's table of a list: rows under a header row, with a caption for screen readers.
import type { Child } from "hono/jsx";

/** A table: its caption read by screen readers alone, a header cell per column, then the rows. */
export function Table(props: { caption: Child; columns: readonly string[]; children: Child }) {
  return (
    <table>
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th scope="col">{column}</th>
          ))}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}
