ALTER TABLE `webhook_endpoints` ADD `secret_key_id` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `previous_secret_key_id` text;