CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`partner_id` text NOT NULL,
	`occurred_at` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`actor_label` text NOT NULL,
	`action` text NOT NULL,
	`environment` text,
	`target` text,
	`details` text,
	`ip` text,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_events_partner_idx` ON `audit_events` (`partner_id`,`id`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `saved_version_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`from_version` text NOT NULL,
	`to_version` text NOT NULL,
	`kind` text NOT NULL,
	`changed_at` text NOT NULL,
	`ref` text NOT NULL,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `saved_version_changes_idx` ON `saved_version_changes` (`partner_id`,`environment`,`id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`session_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `sign_in_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sign_in_tokens_user_idx` ON `sign_in_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`user_id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	`last_signed_in_at` text,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_partner_email_idx` ON `users` (`partner_id`,`email`);--> statement-breakpoint
CREATE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `parent_key_id` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `created_by` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `created_by_user_id` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `masked_key` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `last_used_on` text;--> statement-breakpoint
CREATE INDEX `api_keys_partner_idx` ON `api_keys` (`partner_id`,`environment`,`created_at`);--> statement-breakpoint
CREATE INDEX `api_keys_parent_idx` ON `api_keys` (`parent_key_id`);