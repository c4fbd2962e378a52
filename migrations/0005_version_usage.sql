CREATE TABLE `version_usage` (
	`day` text NOT NULL,
	`version` text NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`requests` integer NOT NULL,
	PRIMARY KEY(`day`, `version`, `partner_id`, `environment`)
);
