CREATE TABLE `statement_renders` (
	`statement_id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`merchant_key` text NOT NULL,
	`status` text NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`requested_at` text NOT NULL,
	`next_attempt_at` text NOT NULL,
	`completed_at` text,
	`error` text,
	FOREIGN KEY (`statement_id`) REFERENCES `statements`(`statement_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `statement_renders_due_idx` ON `statement_renders` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `statement_renders_partner_idx` ON `statement_renders` (`partner_id`,`status`,`statement_id`);--> statement-breakpoint
ALTER TABLE `products` ADD `documents` text DEFAULT 'rendered' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `display_name` text;--> statement-breakpoint
ALTER TABLE `products` ADD `accent_colour` text;--> statement-breakpoint
ALTER TABLE `products` ADD `logo_key` text;--> statement-breakpoint
ALTER TABLE `products` ADD `logo_media_type` text;--> statement-breakpoint
ALTER TABLE `products` ADD `logo_alt_text` text;