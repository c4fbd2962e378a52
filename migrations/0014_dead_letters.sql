CREATE TABLE `dead_letters` (
	`dead_letter_id` text PRIMARY KEY NOT NULL,
	`queue` text NOT NULL,
	`partner_id` text,
	`body` text NOT NULL,
	`dead_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dead_letters_queue_idx` ON `dead_letters` (`queue`,`dead_letter_id`);--> statement-breakpoint
CREATE INDEX `dead_letters_partner_idx` ON `dead_letters` (`partner_id`,`dead_letter_id`);