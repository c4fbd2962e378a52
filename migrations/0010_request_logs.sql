CREATE TABLE `request_log_days` (
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`day` text NOT NULL,
	`key_id` text NOT NULL,
	`version` text NOT NULL,
	`version_source` text NOT NULL,
	`route` text NOT NULL,
	`status_class` integer NOT NULL,
	`error_type` text NOT NULL,
	`requests` integer NOT NULL,
	PRIMARY KEY(`partner_id`, `environment`, `day`, `key_id`, `version`, `version_source`, `route`, `status_class`, `error_type`)
);
--> statement-breakpoint
CREATE INDEX `request_log_days_day_idx` ON `request_log_days` (`day`);--> statement-breakpoint
CREATE TABLE `request_logs` (
	`log_id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`at` text NOT NULL,
	`request_id` text NOT NULL,
	`key_id` text NOT NULL,
	`key_name` text,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`route` text NOT NULL,
	`status` integer NOT NULL,
	`status_class` integer NOT NULL,
	`error_type` text,
	`error_message` text,
	`version` text,
	`version_source` text,
	`latency_ms` integer NOT NULL,
	`d1_round_trips` integer NOT NULL,
	`d1_rows_read` integer NOT NULL,
	`idempotency_key` text,
	`idempotent_replayed` integer NOT NULL,
	`client_ip` text,
	`user_agent` text,
	`request_body` text,
	`response_body` text
);
--> statement-breakpoint
CREATE INDEX `request_logs_scope_idx` ON `request_logs` (`partner_id`,`environment`,`log_id`);--> statement-breakpoint
CREATE INDEX `request_logs_status_idx` ON `request_logs` (`partner_id`,`environment`,`status_class`,`log_id`);--> statement-breakpoint
CREATE INDEX `request_logs_route_idx` ON `request_logs` (`partner_id`,`environment`,`route`,`log_id`);--> statement-breakpoint
CREATE INDEX `request_logs_method_idx` ON `request_logs` (`partner_id`,`environment`,`method`,`log_id`);--> statement-breakpoint
CREATE INDEX `request_logs_key_idx` ON `request_logs` (`partner_id`,`environment`,`key_id`,`log_id`);--> statement-breakpoint
CREATE INDEX `request_logs_version_idx` ON `request_logs` (`partner_id`,`environment`,`version`,`log_id`);--> statement-breakpoint
CREATE INDEX `request_logs_request_idx` ON `request_logs` (`partner_id`,`environment`,`request_id`,`log_id`);