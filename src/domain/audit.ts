// The words of the audit log: who did what, when and from where. Who is a dashboard user, an API
// key or the operator.
import type { Environment } from "./environment";

export type ActorType = "user" | "key" | "operator";

/** Who is acting, as the audit log records it. */
export interface Actor {
  type: ActorType;
  /** The user id or key id; null for the operator. */
  id: string | null;
  /** A user's address, a key's id, or `operator`. */
  label: string;
  /** The client's IP address, from the `CF-Connecting-IP` header, when there is one. */
  ip: string | null;
}

const AUDIT_ACTIONS = [
  "key.created",
  "key.rolled",
  "key.revoked",
  "webhook_endpoint.created",
  "webhook_endpoint.secret_rolled",
  "webhook_endpoint.enabled",
  "webhook_endpoint.updated",
  "webhook_endpoint.recovered",
  "webhook_endpoint.deleted",
  "event.resent",
  "saved_version.changed",
  "saved_version.rolled_back",
  "product.presentation_changed",
  "product.documents_changed",
  "product.rewards_categories_changed",
  "user.invited",
  "user.role_changed",
  "user.removed",
  "user.sign_in_requested",
  "user.signed_in",
  "user.signed_out",
  "user.signed_out_everywhere",
  "customer_data.viewed",
  "sandbox.reset",
  "statement.restated",
  "payment_method.pci_details_read",
  "payment_method.provisioned",
  "order.created",
  "order.updated",
  "order.deleted",
  "order_event.created",
  "order_event.deleted",
  "transaction_intent.created",
  "transaction_intent.updated",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an action changed; stored with its actor and time. */
export interface AuditChange {
  action: AuditAction;
  environment?: Environment | null;
  /**
   * The key id, user id, endpoint id, event id, statement id, order id, intent id or version the
   * action was about.
   */
  target?: string | null;
  details?: Record<string, unknown>;
}

export interface AuditEntry {
  /** The entry's public id, `audit_` and its sequence number: a newer entry has a larger one. */
  id: string;
  occurredAt: string;
  actor: Omit<Actor, "ip">;
  action: AuditAction;
  environment: Environment | null;
  target: string | null;
  details: Record<string, unknown>;
  ip: string | null;
}

/** The public id of the audit entry with this sequence number, as `audit_42`. */
export function auditEntryId(sequence: number): string {
  return `audit_${sequence}`;
}

/** The sequence number in an audit entry's public id, or null when the text is not such an id. */
export function auditSequence(id: string): number | null {
  const match = /^audit_([1-9][0-9]{0,14})$/.exec(id);
  return match ? Number(match[1]) : null;
}
