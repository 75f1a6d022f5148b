<?php
/**
 * The plugin's identity signing produces the hash Parley's Worker accepts. The same fixture is
 * checked against the Worker's own verification (app/.server/widget/wordpress-plugin.test.ts).
 * Run: php integrations/wordpress/parley-chatbot/tests/identity-test.php
 */

define('PARLEY_CHATBOT_TESTING', true);
require __DIR__ . '/../includes/identity.php';

$fixture = json_decode(file_get_contents(__DIR__ . '/identity-fixture.json'), true);
$failures = 0;

function check($label, $ok)
{
    global $failures;
    echo ($ok ? 'ok   ' : 'FAIL ') . $label . "\n";
    if (!$ok) {
        $failures++;
    }
}

$identity = parley_chatbot_identity($fixture['userId'], $fixture['secret'], 'Jane Doe', 'jane@example.com');
check('visitor id is wp-user-<id>', $identity['id'] === $fixture['visitorId']);
check('visitor id fits the Worker\'s rule (8-64 letters, digits, - or _)', preg_match('/^[A-Za-z0-9_-]{8,64}$/', $identity['id']) === 1);
check('hash is the fixture\'s (the one the Worker accepts)', hash_equals($fixture['hash'], $identity['hash']));
check('hash is lowercase hex of 64 characters', preg_match('/^[0-9a-f]{64}$/', $identity['hash']) === 1);
check('another secret gives another hash', parley_chatbot_visitor_hash('another-secret', $fixture['visitorId']) !== $fixture['hash']);
check('name and email are passed on', $identity['name'] === 'Jane Doe' && $identity['email'] === 'jane@example.com');

exit($failures === 0 ? 0 : 1);
