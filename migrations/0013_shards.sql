CREATE TABLE `move_fences` (
	`partner_id` text PRIMARY KEY NOT NULL,
	`phase` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
DROP TABLE `outbox`;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `partner_id` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `moving_to` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `moved_to` text;