CREATE TABLE `events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`statement_id` text NOT NULL,
	`account_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`merchant_key` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`statement_id`) REFERENCES `statements`(`statement_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `events_page_idx` ON `events` (`partner_id`,`environment`,`merchant_key`,`created_at`,`event_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `events_statement_type_idx` ON `events` (`statement_id`,`type`);--> statement-breakpoint
CREATE INDEX `events_created_idx` ON `events` (`created_at`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`locked_until` text,
	`lock_token` text,
	`response_status` integer,
	`response` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expiry_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`attempt_id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`attempted_at` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`status` text NOT NULL,
	`response_status` integer,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_event_idx` ON `webhook_attempts` (`event_id`,`attempted_at`,`attempt_id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`status` text NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`cycle_started_at` text NOT NULL,
	`next_attempt_at` text NOT NULL,
	`lease_until` text,
	`completed_at` text,
	PRIMARY KEY(`event_id`, `endpoint_id`),
	FOREIGN KEY (`event_id`) REFERENCES `events`(`event_id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`endpoint_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`status`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`endpoint_id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`merchant_key` text NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`api_version` text NOT NULL,
	`api_origin` text NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` text,
	`status` text NOT NULL,
	`disabled_at` text,
	`disabled_reason` text,
	`failing_since` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_scope_idx` ON `webhook_endpoints` (`partner_id`,`environment`,`merchant_key`,`endpoint_id`);