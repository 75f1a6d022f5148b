<?php
/**
 * Plugin Name: Parley Chatbot
 * Description: Adds your Parley chatbot to the storefront and tells it who a signed-in customer is.
 * Version: 1.0.0
 * Requires at least: 5.8
 * Requires PHP: 7.4
 * License: MIT
 * Text Domain: parley-chatbot
 */

if (!defined('ABSPATH')) {
    exit;
}

require_once __DIR__ . '/includes/identity.php';
require_once __DIR__ . '/includes/settings.php';

/**
 * The widget script on every storefront page (not in wp-admin), with the signed-in customer's
 * identity signed as Parley expects: hash = HMAC-SHA256(identity secret, visitor id), lowercase hex.
 */
function parley_chatbot_footer()
{
    if (is_admin()) {
        return;
    }
    $options = parley_chatbot_options();
    if ($options['chatbot_id'] === '' || $options['server_url'] === '') {
        return;
    }
    $src = rtrim($options['server_url'], '/') . '/widget.js';
    echo "<script>window.Parley=window.Parley||function(){(Parley.q=Parley.q||[]).push(arguments)};</script>\n";
    $identity = parley_chatbot_identity_for_current_user($options['identity_secret']);
    if ($identity !== null) {
        echo '<script>Parley("identify", ' . wp_json_encode($identity) . ");</script>\n";
    }
    printf(
        "<script src=\"%s\" data-chatbot-id=\"%s\" async></script>\n",
        esc_url($src),
        esc_attr($options['chatbot_id'])
    );
}
add_action('wp_footer', 'parley_chatbot_footer');

/** The signed-in customer's identity for the widget, or null (a guest, or no secret set). */
function parley_chatbot_identity_for_current_user($secret)
{
    if (!is_user_logged_in() || $secret === '') {
        return null;
    }
    $user = wp_get_current_user();
    return parley_chatbot_identity((int) $user->ID, $secret, $user->display_name, $user->user_email);
}
