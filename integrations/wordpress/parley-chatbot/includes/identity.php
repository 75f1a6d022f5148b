<?php
/**
 * Identity verification, as Parley's Worker checks it (app/.server/widget/identity.ts):
 * the visitor id is signed with the chatbot's identity secret, HMAC-SHA256(secret, visitor id) as
 * lowercase hex. Visitor ids are 8–64 letters, digits, "-" or "_": WordPress user 42 is "wp-user-42".
 * Kept free of WordPress functions so it can be tested on its own (tests/identity-test.php).
 */

if (!defined('ABSPATH') && !defined('PARLEY_CHATBOT_TESTING')) {
    exit;
}

/** The visitor id Parley sees for a WordPress user. */
function parley_chatbot_visitor_id($user_id)
{
    return 'wp-user-' . (int) $user_id;
}

/** HMAC-SHA256 of the visitor id with the identity secret, lowercase hex (what the Worker accepts). */
function parley_chatbot_visitor_hash($secret, $visitor_id)
{
    return hash_hmac('sha256', $visitor_id, $secret);
}

/** What the page passes to Parley.identify(). */
function parley_chatbot_identity($user_id, $secret, $name = '', $email = '')
{
    $id = parley_chatbot_visitor_id($user_id);
    $identity = array('id' => $id, 'hash' => parley_chatbot_visitor_hash($secret, $id));
    if ($name !== '') {
        $identity['name'] = $name;
    }
    if ($email !== '') {
        $identity['email'] = $email;
    }
    return $identity;
}
