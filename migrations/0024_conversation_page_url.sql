-- The page of the customer's site a visitor writes from (origin and path, sent by the widget), shown
-- to agents in the live inbox's visitor details (issue 16).
ALTER TABLE `conversations` ADD `page_url` text;
