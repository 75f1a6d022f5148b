import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import {
  Alert,
  Badge,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  CopyField,
  EmptyState,
  Field,
  IntentSubmit,
  PageHeader,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "~/components/ui";
import type { FormReply } from "~/lib/forms";

/** The embed & API screen (route: app.$orgId.$chatbotId.settings.embed). */

export type EmbedSettingsScreenData = {
  chatbot: { id: string; name: string; visibility: "public" | "private" };
  /** This server's origin, for the snippets. */
  origin: string;
  keys: { id: string; name: string; prefix: string; createdAt: number; lastUsedAt: number | null; revokedAt: number | null }[];
  canUseApi: boolean;
  apiHint: string;
  maxKeys: number;
};

/** The action's reply; `created`: a key just issued, shown once. */
export type EmbedActionData = FormReply<{ created?: { name: string; key: string } }>;

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (ms: number | null) => (ms ? `${dateTime.format(ms)} UTC` : "Never");
const attr = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** The page origin typed for the iframe snippet ("https://shop.example.com/help" → "https://shop.example.com"), or null. */
function pageOrigin(input: string): string | null {
  try {
    const url = new URL(input.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}

export function EmbedSettingsScreen({ data, result }: { data: EmbedSettingsScreenData; result: EmbedActionData | undefined }) {
  const { chatbot, origin, keys, canUseApi, apiHint, maxKeys } = data;
  const createFailed = result?.intent === "create-key" && result.tone === "error";
  const [host, setHost] = useState("https://www.example.com");

  const id = chatbot.id;
  const scriptSnippet = `<script src="${origin}/widget.js" data-chatbot-id="${id}" async></script>`;
  const apiSnippet = [
    "Parley.open();  // open the chat",
    "Parley.close(); // close it",
    "// A signed-in visitor; hash = HMAC-SHA256(identity secret, id), see Origins & access",
    'Parley.identify({ id: "user-123", hash: "…", name: "Ada Lovelace", email: "ada@example.com" });',
    'Parley.on("lead", (lead) => console.log("New lead", lead));',
    'Parley.on("message", (message) => console.log(message.role, message.content));',
  ].join("\n");
  const hostOrigin = pageOrigin(host);
  const iframeSnippet = `<iframe src="${origin}/widget/frame/${id}?host=${encodeURIComponent(hostOrigin ?? "https://www.example.com")}" title="${attr(`Chat with ${chatbot.name}`)}" width="400" height="600" style="border: 0; max-width: 100%;" loading="lazy"></iframe>`;
  const shareLink = `${origin}/test/${id}`;

  return (
    <div className="space-y-6">
      <PageHeader title="Embed & API" description={`Put ${chatbot.name} on your website, share it with a link, or call it from your own code.`} />
      {result?.message && !result.created ? (
        <Alert tone={result.tone === "success" ? "success" : "error"} role={result.tone === "error" ? "alert" : "status"} dismissible={result}>
          {result.message}
        </Alert>
      ) : null}

      <Card>
        <CardHeader
          title="Chat bubble on your website"
          description="Paste this before </body> on every page that should show the chat. It adds the launcher and loads the chat only when a visitor opens it."
        />
        <CardBody className="space-y-4">
          {chatbot.visibility === "private" ? (
            <Alert tone="warning">
              This chatbot is private: the widget refuses visitors until you make it public under{" "}
              <Link to="../oryg" relative="path">
                Origins &amp; access
              </Link>
              .
            </Alert>
          ) : null}
          <CopyField label="Script snippet" value={scriptSnippet} multiline />
          <CopyField
            label="JavaScript API"
            value={apiSnippet}
            multiline
            hint="Optional: call these from your page once the script has loaded, e.g. from your own “Chat with us” button."
          />
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Inline chat (iframe)" description="The chat inside your page's layout instead of a bubble, e.g. on a help page." />
        <CardBody className="space-y-4">
          <div className="max-w-md">
            <Field
              label="Your website's origin"
              name="iframeHost"
              value={host}
              onChange={(e) => setHost(e.currentTarget.value)}
              spellCheck={false}
              inputMode="url"
              error={hostOrigin ? undefined : "Enter an address like https://www.example.com; the snippet below uses that example until then."}
              hint="Scheme, host and port of the page that embeds the iframe, like https://www.example.com."
            />
          </div>
          <CopyField
            label="Iframe snippet"
            value={iframeSnippet}
            multiline
            hint="The chat only talks to the page origin named in host= and checks it against your allowed origins (Origins & access), so a copy pasted on another site does not work. Use one snippet per website."
          />
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Share link" description="A page with just the chat, for trying it out or sending to someone." />
        <CardBody>
          <CopyField
            label="Share link"
            value={shareLink}
            hint={
              chatbot.visibility === "private"
                ? "This chatbot is private: the link works only for signed-in members of your organisation."
                : "Anyone with the link can chat."
            }
          />
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title="REST API keys"
          description={`Keys let your server call this chatbot's REST API with an Authorization: Bearer header. Up to ${maxKeys} active keys.`}
        />
        <CardBody className="space-y-5">
          {result?.created ? (
            <Alert tone="warning" title={`Copy the key “${result.created.name}” now`}>
              <p className="mb-3">
                This is the only time the full key is shown. Parley keeps only a fingerprint of it, so it cannot be shown again; if you lose it, create a new
                key and revoke this one.
              </p>
              <CopyField label="New API key" value={result.created.key} />
            </Alert>
          ) : null}

          {canUseApi ? null : (
            // Shown disabled rather than hidden: the plan that includes the API is named here.
            <Alert tone="info" title="API keys are not part of your plan" id="api-plan-note">
              {apiHint}
            </Alert>
          )}
          <Form method="post" noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end" key={result?.created ? result.created.key : "create"}>
            <input type="hidden" name="intent" value="create-key" />
            <Field
              label="Key name"
              name="name"
              className="flex-1"
              maxLength={60}
              placeholder="e.g. Production server"
              defaultValue={createFailed ? (result?.values.name ?? "") : ""}
              error={result?.intent === "create-key" ? result.fieldErrors.name : undefined}
              hint="So you recognise it later, 1–60 characters."
              disabled={!canUseApi}
              aria-describedby={canUseApi ? undefined : "api-plan-note"}
            />
            <div className="sm:pb-7">
              <IntentSubmit
                intent="create-key"
                busyLabel="Creating…"
                disabled={canUseApi ? undefined : true}
                aria-describedby={canUseApi ? undefined : "api-plan-note"}
              >
                Create key
              </IntentSubmit>
            </div>
          </Form>

          {keys.length === 0 ? (
            <EmptyState
              title="No API keys yet"
              description={canUseApi ? "Create one above when your server needs to call the API." : "Keys you create will be listed here."}
            />
          ) : (
            <Table>
              <caption className="sr-only">API keys</caption>
              <THead>
                <tr>
                  <TH>Name</TH>
                  <TH>Key</TH>
                  <TH>Created</TH>
                  <TH>Last used</TH>
                  <TH>Status</TH>
                  <TH>
                    <span className="sr-only">Actions</span>
                  </TH>
                </tr>
              </THead>
              <TBody>
                {keys.map((k) => (
                  <TR key={k.id}>
                    <TD className="font-medium text-zinc-900 dark:text-zinc-100">{k.name}</TD>
                    <TD className="font-mono text-xs">{`${k.prefix}…`}</TD>
                    <TD>{when(k.createdAt)}</TD>
                    <TD>{when(k.lastUsedAt)}</TD>
                    <TD>{k.revokedAt ? <Badge tone="danger">{`Revoked ${dateTime.format(k.revokedAt)}`}</Badge> : <Badge tone="success">Active</Badge>}</TD>
                    <TD className="text-right">
                      {k.revokedAt ? null : (
                        <ConfirmDialog
                          trigger={
                            <span>
                              Revoke<span className="sr-only">{` key “${k.name}”`}</span>
                            </span>
                          }
                          triggerSize="sm"
                          triggerVariant="secondary"
                          title={`Revoke the key “${k.name}”?`}
                          description="Requests using this key are refused from now on. This cannot be undone."
                        >
                          <Form method="post">
                            <input type="hidden" name="intent" value="revoke-key" />
                            <input type="hidden" name="keyId" value={k.id} />
                            <IntentSubmit
                              intent="revoke-key"
                              match={{ name: "keyId", value: k.id }}
                              busyLabel="Revoking…"
                              variant="danger"
                              className="w-full sm:w-auto"
                            >
                              Revoke key
                            </IntentSubmit>
                          </Form>
                        </ConfirmDialog>
                      )}
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
