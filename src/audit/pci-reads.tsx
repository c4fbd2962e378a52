// How many times each API key read a card's PAN and CVV: the audit log's
// `payment_method.pci_details_read` entries of the partner, and its `payment_method.provisioned`
// ones (a provisioning decrypts the PAN to encrypt it for the wallet), counted per key and
// environment, so an Admin sees at a glance which keys read card details and how often (each
// read, with its card, time and address, is an entry of the log below).
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { Time } from "../dashboard/layout";
import { Table } from "../dashboard/table";
import type { Database } from "../db/client";
import { auditEvents } from "../db/schema";

export interface PciReadCount {
  key: string;
  environment: string | null;
  reads: number;
  last: string;
}

/** The partner's card-detail reads per key, the most recent reader first. */
export function readPciReadCounts(db: Database, partnerId: string): Promise<PciReadCount[]> {
  return db
    .select({
      key: auditEvents.actorLabel,
      environment: auditEvents.environment,
      reads: count(),
      last: sql<string>`max(${auditEvents.occurredAt})`,
    })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.partnerId, partnerId),
        inArray(auditEvents.action, [
          "payment_method.pci_details_read",
          "payment_method.provisioned",
        ]),
      ),
    )
    .groupBy(auditEvents.actorLabel, auditEvents.environment)
    .orderBy(desc(sql`max(${auditEvents.occurredAt})`));
}

export function PciReads(props: { counts: PciReadCount[] }) {
  return (
    <>
      <h2>Card numbers read</h2>
      {props.counts.length === 0 ? (
        <p>No API key has read a card's number and code.</p>
      ) : (
        <Table
          caption="Reads of a card's PAN and CVV, by API key"
          columns={["Key", "Environment", "Reads", "Last read"]}
        >
          {props.counts.map((row) => (
            <tr>
              <td>
                <code>{row.key}</code>
              </td>
              <td>{row.environment ?? <span class="muted">—</span>}</td>
              <td>{row.reads}</td>
              <td>
                <Time at={row.last} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
