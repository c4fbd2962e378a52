ALTER TABLE `webhook_deliveries` ADD `throttle_slot` integer;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_slot_idx` ON `webhook_deliveries` (`endpoint_id`,`throttle_slot`);--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `failure_streak` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `health_notice` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `enabled_events` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `event_types` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `event_types_revision` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `throttle_second` integer;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `throttle_used` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `admitted_second` integer;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `admitted_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `events_type_page_idx` ON `events` (`partner_id`,`environment`,`merchant_key`,`type`,`created_at`,`event_id`);