CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `partners` ADD `jurisdiction` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
-- A partner's jurisdiction is set when it is created and never changes: the database refuses it.
CREATE TRIGGER `partners_jurisdiction_fixed`
BEFORE UPDATE OF `jurisdiction` ON `partners`
WHEN NEW.`jurisdiction` IS NOT OLD.`jurisdiction`
BEGIN
  SELECT RAISE(ABORT, 'partner_jurisdiction_fixed');
END;
