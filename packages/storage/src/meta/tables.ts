// Kysely table types of the metadata schema (DESIGN.md §3). The migrations create exactly these.
import type { ColumnType, Generated, Selectable } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json<T> = ColumnType<T, string, string>;

export interface PropertySettings {
  cookieless: boolean;
  allowed_hostnames: string[];
  excluded_ips: string[];
  excluded_paths: string[];
  public_share: { enabled: boolean; password_hash: string | null };
}

export interface UsersTable {
  id: string;
  email: string;
  email_norm: string;
  name: string;
  password_hash: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** The account the user last switched to: where the next sign-in opens (null: the oldest). */
  last_account_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AccountsTable {
  id: string;
  name: string;
  created_at: CreatedAt;
}

export interface MembershipsTable {
  account_id: string;
  user_id: string;
  role: "owner" | "admin" | "editor" | "viewer";
  created_at: CreatedAt;
}

export interface InvitationsTable {
  id: string;
  account_id: string;
  email_norm: string;
  /** The address as the inviter typed it ("" on rows from before migration 0006). */
  email: Generated<string>;
  role: "owner" | "admin" | "editor" | "viewer";
  token_hash: string;
  /** The inviting user's id (no foreign key: the invitation outlives a deleted inviter). */
  invited_by: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  accepted_by: ColumnType<string | null, string | null | undefined, string | null>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface PropertiesTable {
  id: string;
  unique_id: string;
  account_id: string;
  website_url: string;
  name: string;
  timezone: string;
  is_demo: boolean;
  settings: Json<PropertySettings>;
  created_at: CreatedAt;
}

export interface AuthTokensTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  user_agent: string;
  /** The address the session signed in from (shown in the sessions list). */
  ip: Generated<string>;
}

export interface PasswordResetsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface ApiKeysTable {
  id: string;
  key_hash: string;
  prefix: string;
  user_id: string;
  account_id: string;
  name: string;
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
}

export interface InsightsTable {
  id: string;
  property_id: string;
  kind: string;
  name: string;
  description: string;
  /** The insight's spec (@lookout/schema InsightSpec), validated on the way in and out. */
  query: Json<unknown>;
  created_by: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** 0007: the public id (8 random [A-Za-z0-9]), favourite, tags, soft delete. */
  short_id: string;
  favourite: Generated<boolean>;
  tags: Json<string[]>;
  deleted_at: Timestamp | null;
}

export interface InsightViewsTable {
  user_id: string;
  insight_id: string;
  viewed_at: Timestamp;
}

export interface ReportSchedulesTable {
  id: string;
  property_id: string;
  frequency: "weekly" | "monthly";
  recipients: Json<string[]>;
  /** The local hour (property's timezone) the report goes out; 9 by default. */
  send_hour: Generated<number>;
  last_sent_at: Timestamp | null;
  /** The last period sent to every recipient, e.g. "2026-W47" or "2026-11". */
  last_sent_period: string | null;
  created_at: CreatedAt;
}

export interface ReportDeliveriesTable {
  schedule_id: string;
  period: string;
  /** Lower-cased address. */
  recipient: string;
  state: "sending" | "sent" | "failed";
  attempts: Generated<number>;
  updated_at: Timestamp;
  sent_at: Timestamp | null;
}

export interface GoalsTable {
  id: string;
  property_id: string;
  kind: "event" | "page";
  /** The custom event's name (kind "event") or the path pattern with `*` (kind "page"). */
  match: string;
  display_name: string;
  currency: string | null;
  created_at: CreatedAt;
}

export interface SharedLinksTable {
  id: string;
  property_id: string;
  name: string;
  slug: string;
  password_hash: string | null;
  expires_at: Timestamp | null;
  created_by: string;
  created_at: CreatedAt;
}

export interface SubscriptionsTable {
  account_id: string;
  plan: string;
  status: string;
  period_start: Timestamp | null;
  period_end: Timestamp | null;
  provider_customer_id: string | null;
  provider_subscription_id: string | null;
  interval: ColumnType<string | null, string | null | undefined, string | null>;
  /** The billing anchor: periods start on its day of the month at its time (null: the account's creation). */
  anchor: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  grace_ends_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Why the grace period runs: "usage" (two periods over the margin) or "payment" (a failed payment). */
  grace_reason: ColumnType<string | null, string | null | undefined, string | null>;
  payment_failed: ColumnType<boolean, boolean | undefined, boolean>;
  cancel_at_period_end: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface BillingUsageTable {
  account_id: string;
  period_start: Timestamp;
  period_end: Timestamp;
  events: ColumnType<string, number | string, number | string>;
  counted_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface BillingMailsTable {
  account_id: string;
  period_start: Timestamp;
  kind: string;
  sent_at: CreatedAt;
}

export interface BillingWebhookEventsTable {
  id: string;
  type: string;
  received_at: CreatedAt;
}

export interface BillingInvoicesTable {
  id: string;
  account_id: string;
  number: string | null;
  amount: ColumnType<string, number | string, number | string>;
  currency: string;
  status: string;
  url: string | null;
  created_at: Timestamp;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_addr: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: CreatedAt;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: string | null;
  user_id: string | null;
  action: string;
  detail: Json<Record<string, unknown>>;
  created_at: CreatedAt;
}

export interface SaltsTable {
  day: string;
  secret: string;
  created_at: CreatedAt;
}

export interface MetaDatabase {
  users: UsersTable;
  accounts: AccountsTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  properties: PropertiesTable;
  auth_tokens: AuthTokensTable;
  password_resets: PasswordResetsTable;
  api_keys: ApiKeysTable;
  insights: InsightsTable;
  insight_views: InsightViewsTable;
  report_schedules: ReportSchedulesTable;
  report_deliveries: ReportDeliveriesTable;
  goals: GoalsTable;
  shared_links: SharedLinksTable;
  subscriptions: SubscriptionsTable;
  billing_usage: BillingUsageTable;
  billing_mails: BillingMailsTable;
  billing_webhook_events: BillingWebhookEventsTable;
  billing_invoices: BillingInvoicesTable;
  mail_outbox: MailOutboxTable;
  audit_log: AuditLogTable;
  salts: SaltsTable;
}

export type UserRow = Selectable<UsersTable>;
export type PropertyRow = Selectable<PropertiesTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type InvitationRow = Selectable<InvitationsTable>;
