<?php
/**
 * Settings → Parley Chatbot: the Parley server, the chatbot id and the identity verification secret.
 */

if (!defined('ABSPATH')) {
    exit;
}

const PARLEY_CHATBOT_OPTION = 'parley_chatbot';

/** The saved options with their defaults. */
function parley_chatbot_options()
{
    $saved = get_option(PARLEY_CHATBOT_OPTION, array());
    return array(
        'server_url' => isset($saved['server_url']) ? (string) $saved['server_url'] : '',
        'chatbot_id' => isset($saved['chatbot_id']) ? (string) $saved['chatbot_id'] : '',
        'identity_secret' => isset($saved['identity_secret']) ? (string) $saved['identity_secret'] : '',
    );
}

/** Keeps only well-formed values; an empty secret field keeps the stored secret (it is never shown). */
function parley_chatbot_sanitize($input)
{
    $current = parley_chatbot_options();
    $out = $current;
    $url = isset($input['server_url']) ? esc_url_raw(trim((string) $input['server_url']), array('https', 'http')) : '';
    $out['server_url'] = rtrim($url, '/');
    $id = isset($input['chatbot_id']) ? trim((string) $input['chatbot_id']) : '';
    if ($id === '' || preg_match('/^cb_[A-Za-z0-9_-]{1,64}$/', $id)) {
        $out['chatbot_id'] = $id;
    } else {
        add_settings_error(PARLEY_CHATBOT_OPTION, 'chatbot_id', __('The chatbot id starts with cb_ (copy it from Parley).', 'parley-chatbot'));
    }
    $secret = isset($input['identity_secret']) ? trim((string) $input['identity_secret']) : '';
    if ($secret !== '') {
        $out['identity_secret'] = $secret;
    }
    if (!empty($input['forget_secret'])) {
        $out['identity_secret'] = '';
    }
    return $out;
}

function parley_chatbot_register_settings()
{
    register_setting('parley_chatbot', PARLEY_CHATBOT_OPTION, array('sanitize_callback' => 'parley_chatbot_sanitize'));
}
add_action('admin_init', 'parley_chatbot_register_settings');

function parley_chatbot_menu()
{
    add_options_page(__('Parley Chatbot', 'parley-chatbot'), __('Parley Chatbot', 'parley-chatbot'), 'manage_options', 'parley-chatbot', 'parley_chatbot_settings_page');
}
add_action('admin_menu', 'parley_chatbot_menu');

function parley_chatbot_settings_page()
{
    if (!current_user_can('manage_options')) {
        return;
    }
    $o = parley_chatbot_options();
    $dashboard = $o['server_url'] !== '' ? $o['server_url'] . '/app' : '';
    ?>
    <div class="wrap">
        <h1><?php esc_html_e('Parley Chatbot', 'parley-chatbot'); ?></h1>
        <p><?php esc_html_e('Shows your Parley chatbot on the storefront. Signed-in customers are identified to the bot, signed with your identity verification secret.', 'parley-chatbot'); ?></p>
        <?php settings_errors(PARLEY_CHATBOT_OPTION); ?>
        <form method="post" action="options.php">
            <?php settings_fields('parley_chatbot'); ?>
            <table class="form-table" role="presentation">
                <tr>
                    <th scope="row"><label for="parley-server"><?php esc_html_e('Parley address', 'parley-chatbot'); ?></label></th>
                    <td><input id="parley-server" class="regular-text" type="url" name="parley_chatbot[server_url]" value="<?php echo esc_attr($o['server_url']); ?>" placeholder="https://parley.example.com" /></td>
                </tr>
                <tr>
                    <th scope="row"><label for="parley-chatbot-id"><?php esc_html_e('Chatbot id', 'parley-chatbot'); ?></label></th>
                    <td><input id="parley-chatbot-id" class="regular-text" type="text" name="parley_chatbot[chatbot_id]" value="<?php echo esc_attr($o['chatbot_id']); ?>" placeholder="cb_…" />
                        <p class="description"><?php esc_html_e('On your chatbot\'s Integrations → WooCommerce page in Parley.', 'parley-chatbot'); ?></p></td>
                </tr>
                <tr>
                    <th scope="row"><label for="parley-secret"><?php esc_html_e('Identity verification secret', 'parley-chatbot'); ?></label></th>
                    <td><input id="parley-secret" class="regular-text" type="password" autocomplete="off" name="parley_chatbot[identity_secret]" value="" placeholder="<?php echo $o['identity_secret'] !== '' ? esc_attr__('Saved — leave empty to keep it', 'parley-chatbot') : ''; ?>" />
                        <p class="description"><?php esc_html_e('From Settings → Origins & access in Parley. Optional: without it, customers chat as guests.', 'parley-chatbot'); ?></p>
                        <?php if ($o['identity_secret'] !== '') : ?>
                            <label><input type="checkbox" name="parley_chatbot[forget_secret]" value="1" /> <?php esc_html_e('Forget the saved secret', 'parley-chatbot'); ?></label>
                        <?php endif; ?></td>
                </tr>
            </table>
            <?php submit_button(); ?>
        </form>
        <?php if ($dashboard !== '') : ?>
            <p><a href="<?php echo esc_url($dashboard); ?>" target="_blank" rel="noopener"><?php esc_html_e('Open Parley: conversations, knowledge and settings', 'parley-chatbot'); ?></a></p>
        <?php endif; ?>
    </div>
    <?php
}

/** "Settings" next to the plugin on the Plugins screen. */
function parley_chatbot_action_links($links)
{
    $links[] = '<a href="' . esc_url(admin_url('options-general.php?page=parley-chatbot')) . '">' . esc_html__('Settings', 'parley-chatbot') . '</a>';
    return $links;
}
add_filter('plugin_action_links_' . plugin_basename(dirname(__DIR__) . '/parley-chatbot.php'), 'parley_chatbot_action_links');
