-- How many custom tools each chatbot has on, kept in its settings (`$.tools.customEnabled`) so a chat
-- turn needs no query for tools when there are none (issue 21's round-trip budget). Sets it for
-- tools saved before; app/.server/tools/custom-tools.ts keeps it current from now on.
UPDATE `chatbots` SET `settings` = json_set(coalesce(`settings`, '{}'), '$.tools.customEnabled',
	(SELECT count(*) FROM `custom_tools` WHERE `custom_tools`.`chatbot_id` = `chatbots`.`id` AND `custom_tools`.`enabled` = 1))
WHERE EXISTS (SELECT 1 FROM `custom_tools` WHERE `custom_tools`.`chatbot_id` = `chatbots`.`id`);
