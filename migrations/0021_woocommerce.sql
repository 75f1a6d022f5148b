-- WooCommerce connector (issue 18, ADR 030): one store per chatbot, its products as the shop tools
-- search them, and the webhook deliveries already applied (de-duplication by delivery id).
CREATE TABLE `woo_connections` (
	`chatbot_id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`store_url` text NOT NULL,
	`consumer_key` text NOT NULL,
	`consumer_secret` text NOT NULL,
	`webhook_secret` text NOT NULL,
	`webhook_ids` text DEFAULT '[]' NOT NULL,
	`source_id` text,
	`currency` text DEFAULT 'USD' NOT NULL,
	`currency_symbol` text DEFAULT '$' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`org_id`) REFERENCES `organisations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `woo_connections_org_idx` ON `woo_connections` (`org_id`);--> statement-breakpoint
CREATE TABLE `woo_products` (
	`chatbot_id` text NOT NULL,
	`product_id` integer NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`price` real,
	`regular_price` real,
	`sale_price` real,
	`stock_status` text NOT NULL,
	`stock_quantity` integer,
	`categories` text DEFAULT '' NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`permalink` text,
	`image` text,
	`synced_at` integer NOT NULL,
	PRIMARY KEY(`chatbot_id`, `product_id`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `woo_products_price_idx` ON `woo_products` (`chatbot_id`,`price`);--> statement-breakpoint
CREATE TABLE `woo_webhook_deliveries` (
	`chatbot_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`chatbot_id`, `delivery_id`),
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
