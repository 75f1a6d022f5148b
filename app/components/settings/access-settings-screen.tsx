import { Form } from "@remix-run/react";
import { Alert, Badge, Card, CardBody, CardHeader, CheckboxField, ConfirmDialog, CopyField, Field, IntentSubmit, PageHeader, Textarea } from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { SiteActivity, type SiteActivityData } from "./site-activity";
import { ORIGINS_MAX, RATE_PER_HOUR_MAX, RATE_PER_MINUTE_MAX, type AccessSettings } from "~/lib/schemas/widget-settings";

/** The origins & access screen (route: app.$orgId.$chatbotId.settings.oryg). */

export type AccessSettingsScreenData = {
  chatbot: { id: string; name: string };
  visibility: "public" | "private";
  access: AccessSettings;
  /** Whether an identity secret exists (never the secret itself). */
  hasSecret: boolean;
  sites: SiteActivityData;
};

/** The action's reply; `secret`: the identity secret, after an explicit reveal or rotation. */
export type AccessActionData = FormReply<{ secret?: string }>;

const NODE_SAMPLE = `// Node.js, on your server: sign the id of the signed-in user
import { createHmac } from "node:crypto";

const hash = createHmac("sha256", process.env.PARLEY_IDENTITY_SECRET)
  .update(visitorId)
  .digest("hex");
// In the page: Parley.identify({ id: visitorId, hash, name, email });`;

const PHP_SAMPLE = `<?php // PHP, on your server
$hash = hash_hmac('sha256', $visitorId, getenv('PARLEY_IDENTITY_SECRET'));
?>
<script>Parley.identify({ id: <?= json_encode($visitorId) ?>, hash: <?= json_encode($hash) ?> });</script>`;

export function AccessSettingsScreen({ data, result }: { data: AccessSettingsScreenData; result: AccessActionData | undefined }) {
  const { chatbot, visibility, access, hasSecret } = data;
  const failedSave = result?.intent === "save" && result.tone === "error" && Object.keys(result.fieldErrors).length > 0;
  const v = (key: string, saved: string) => (failedSave ? (result?.values[key] ?? "") : saved);
  const err = (key: string) => (result?.intent === "save" ? result.fieldErrors[key] : undefined);
  const chosenVisibility = v("visibility", visibility);
  // Keyed by the saved settings too, so the form shows a list "Allow this site" just changed.
  const formKey =
    result?.intent === "save" ? `${result.tone}-${JSON.stringify(result.values)}-${JSON.stringify(access)}-${visibility}` : `form-${JSON.stringify(access)}`;
  const secret = result?.secret;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Origins & access"
        description={`Who may chat with ${chatbot.name}, from which websites, how often, and whether visitors must be verified by your server.`}
      />
      {result?.message ? (
        <Alert tone={result.tone === "success" ? "success" : "error"} role={result.tone === "error" ? "alert" : "status"} dismissible={result}>
          {result.message}
        </Alert>
      ) : null}

      <SiteActivity sites={data.sites} />

      <Form key={formKey} method="post" noValidate className="space-y-6">
        <input type="hidden" name="intent" value="save" />
        <Card>
          <CardHeader title="Visibility" />
          <CardBody>
            <fieldset aria-describedby={err("visibility") ? "visibility-error" : undefined}>
              <legend className="sr-only">Who can chat</legend>
              <div className="space-y-3">
                {(
                  [
                    ["public", "Public", "Anyone on an allowed website can chat, and the share link works for everyone."],
                    [
                      "private",
                      "Private",
                      "Only signed-in members of your organisation can chat, e.g. to try it out before launch. Everyone else is told the chatbot does not exist.",
                    ],
                  ] as const
                ).map(([value, label, hint]) => (
                  <div key={value} className="flex items-start gap-3">
                    <input
                      id={`visibility-${value}`}
                      type="radio"
                      name="visibility"
                      value={value}
                      defaultChecked={chosenVisibility === value}
                      aria-describedby={`visibility-${value}-hint`}
                      className="mt-1 size-4 shrink-0 border-zinc-300 text-brand-600 dark:border-zinc-600"
                    />
                    <div>
                      <label htmlFor={`visibility-${value}`} className="text-sm font-medium">
                        {label}
                      </label>
                      <p id={`visibility-${value}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
                        {hint}
                      </p>
                    </div>
                  </div>
                ))}
              </div>
              {err("visibility") ? (
                <p id="visibility-error" className="mt-2 text-sm text-red-600 dark:text-red-400">
                  {err("visibility")?.join(" ")}
                </p>
              ) : null}
            </fieldset>
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Allowed websites" />
          <CardBody>
            <Field
              label="Allowed origins"
              name="allowedOrigins"
              error={err("allowedOrigins")}
              hint={`One per line (up to ${ORIGINS_MAX}): an exact host (shop.example.com), with a scheme or port (https://shop.example.com:8443), or every subdomain (*.example.com). Leave empty to allow any website. Other websites cannot show the widget or use the chat.`}
            >
              <Textarea
                rows={6}
                defaultValue={v("allowedOrigins", access.allowedOrigins.join("\n"))}
                spellCheck={false}
                placeholder={"shop.example.com\n*.example.com"}
                className="font-mono"
              />
            </Field>
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Rate limit" description="How many messages one visitor may send, so nobody can run up your replies." />
          <CardBody className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Messages per minute"
              name="rateLimitPerMinute"
              type="number"
              inputMode="numeric"
              min={1}
              max={RATE_PER_MINUTE_MAX}
              step={1}
              defaultValue={v("rateLimitPerMinute", String(access.rateLimitPerMinute))}
              error={err("rateLimitPerMinute")}
              hint={`1 to ${RATE_PER_MINUTE_MAX}, per visitor.`}
              required
            />
            <Field
              label="Messages per hour"
              name="rateLimitPerHour"
              type="number"
              inputMode="numeric"
              min={1}
              max={RATE_PER_HOUR_MAX}
              step={1}
              defaultValue={v("rateLimitPerHour", String(access.rateLimitPerHour))}
              error={err("rateLimitPerHour")}
              hint={`1 to ${RATE_PER_HOUR_MAX}, per visitor.`}
              required
            />
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Verified visitors" />
          <CardBody>
            <CheckboxField
              name="requireVerified"
              label="Require verified visitors"
              hint="Only visitors identified by your server with a valid hash may chat; everyone else is refused. Needs an identity secret (below)."
              defaultChecked={failedSave ? result?.values.requireVerified === "on" : access.requireVerified}
              error={err("requireVerified")}
            />
          </CardBody>
        </Card>

        <div className="flex justify-end">
          <IntentSubmit intent="save" busyLabel="Saving…">
            Save origins & access
          </IntentSubmit>
        </div>
      </Form>

      <Card>
        <CardHeader
          title="Identity verification"
          description="Your server signs each signed-in visitor's id with this secret; the widget passes the signature along, so nobody can pretend to be one of your users."
          actions={hasSecret ? <Badge tone="success">Secret set</Badge> : <Badge tone="neutral">No secret yet</Badge>}
        />
        <CardBody className="space-y-5">
          <div className="flex flex-wrap gap-2">
            {hasSecret ? (
              <>
                <Form method="post">
                  <input type="hidden" name="intent" value="reveal-secret" />
                  <IntentSubmit intent="reveal-secret" busyLabel="Revealing…" variant="secondary">
                    Reveal secret
                  </IntentSubmit>
                </Form>
                <ConfirmDialog
                  trigger="Rotate secret"
                  triggerVariant="secondary"
                  title="Rotate the identity secret?"
                  description="A new secret replaces the current one at once. Hashes your server made with the old secret stop verifying, so signed-in visitors are refused until your server uses the new secret."
                >
                  <Form method="post">
                    <input type="hidden" name="intent" value="rotate-secret" />
                    <IntentSubmit intent="rotate-secret" busyLabel="Rotating…" variant="danger" className="w-full sm:w-auto">
                      Rotate now
                    </IntentSubmit>
                  </Form>
                </ConfirmDialog>
              </>
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="rotate-secret" />
                <IntentSubmit intent="rotate-secret" busyLabel="Generating…">
                  Generate secret
                </IntentSubmit>
              </Form>
            )}
          </div>
          {secret ? (
            <CopyField label="Identity secret" value={secret} hint="Keep it on your server (an environment variable); never put it in a web page." />
          ) : null}
          <div className="space-y-4">
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              Compute <code className="font-mono">HMAC-SHA256(secret, visitorId)</code> as lowercase hex on your server and pass it with{" "}
              <code className="font-mono">Parley.identify()</code>:
            </p>
            <CopyField label="Node.js example" value={NODE_SAMPLE} multiline />
            <CopyField label="PHP example" value={PHP_SAMPLE} multiline />
          </div>
        </CardBody>
      </Card>
    </div>
  );
}
