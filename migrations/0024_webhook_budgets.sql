ALTER TABLE `webhook_deliveries` ADD `recovered_at` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `budget_since` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `budget_recoveries` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `budget_resends` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `budget_enables` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `recovery_started_at` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `recovery_since` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `recovery_until` text;