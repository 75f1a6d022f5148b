import { Form, Link } from "@remix-run/react";
import { Alert, Badge, Card, CardBody, CardHeader, ConfirmDialog, Field, IntentSubmit, PageHeader } from "~/components/ui";
import type { FormReply } from "~/lib/forms";

/** The WooCommerce integration screen (route: app.$orgId.$chatbotId.integrations.woocommerce). */

type SyncState = {
  status: "queued" | "processing" | "ready" | "failed";
  progressDone: number;
  progressTotal: number;
  error: string | null;
  lastSyncedAt: number | null;
  nextSyncAt: number | null;
};
export type WooScreenData = {
  orgId: string;
  chatbot: { id: string; name: string };
  canUse: boolean;
  planHint: string;
  connection: { storeUrl: string; currency: string; connectedAt: number; webhooks: number; products: number; sync: SyncState | null } | null;
};
export type WooActionData = FormReply;

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (ms: number | null) => (ms ? `${dateTime.format(ms)} UTC` : "not yet");

function SyncLine({ sync }: { sync: SyncState }) {
  if (sync.status === "failed")
    return (
      <Alert tone="error" title="The last sync failed">
        {sync.error}
      </Alert>
    );
  if (sync.status !== "ready")
    return (
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        <Badge tone="brand">Syncing</Badge>{" "}
        {sync.progressTotal ? `Page ${sync.progressDone} of ${sync.progressTotal} of the store's products.` : "Waiting for the first page of products."} Reload
        to see progress.
      </p>
    );
  return (
    <p className="text-sm text-zinc-700 dark:text-zinc-300">
      <Badge tone="success">Synced</Badge> Last full sync {when(sync.lastSyncedAt)}; next {when(sync.nextSyncAt)}. Changes in the store arrive through webhooks
      in between.
    </p>
  );
}

export function WooCommerceScreen({ data, result }: { data: WooScreenData; result: WooActionData | undefined }) {
  const { connection, canUse } = data;
  // Links are absolute: relative ones resolve against …/integrations, not the chatbot.
  const base = `/app/${data.orgId}/${data.chatbot.id}`;
  const failed = result?.intent === "connect" && result.tone === "error";
  const err = (f: string) => (failed ? result?.fieldErrors?.[f]?.[0] : undefined);
  return (
    <div className="space-y-6">
      <PageHeader
        title="WooCommerce"
        description={`Connect your WooCommerce store so ${data.chatbot.name} knows your products, finds them for visitors and tells customers where their order is.`}
      />
      {result?.message ? (
        <Alert tone={result.tone === "success" ? "success" : "error"} role={result.tone === "error" ? "alert" : "status"} dismissible={result}>
          {result.message}
        </Alert>
      ) : null}
      {!canUse && !connection ? <Alert tone="info">{data.planHint}</Alert> : null}

      {connection ? (
        <Card>
          <CardHeader title="Connected store" description={connection.storeUrl} />
          <CardBody className="space-y-4">
            <dl className="grid gap-3 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-zinc-600 dark:text-zinc-400">Products synced</dt>
                <dd className="font-medium">{connection.products}</dd>
              </div>
              <div>
                <dt className="text-zinc-600 dark:text-zinc-400">Webhooks in the store</dt>
                <dd className="font-medium">{connection.webhooks} (products created, updated, deleted)</dd>
              </div>
              <div>
                <dt className="text-zinc-600 dark:text-zinc-400">Connected</dt>
                <dd className="font-medium">{when(connection.connectedAt)}</dd>
              </div>
            </dl>
            {connection.sync ? <SyncLine sync={connection.sync} /> : null}
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              The products are a source in the{" "}
              <Link to={`${base}/kb`} className="underline">
                knowledge base
              </Link>
              ; the bot searches them and looks up orders (only with the order number and the billing email together).
            </p>
            <ConfirmDialog
              trigger="Disconnect"
              triggerVariant="danger"
              title="Disconnect the store?"
              description="Parley deletes its webhooks in the store, removes the synced products from the knowledge base and forgets the API keys. The bot stops answering about products and orders."
            >
              <Form method="post">
                <input type="hidden" name="intent" value="disconnect" />
                <IntentSubmit intent="disconnect" variant="danger" busyLabel="Disconnecting…">
                  Disconnect
                </IntentSubmit>
              </Form>
            </ConfirmDialog>
          </CardBody>
        </Card>
      ) : (
        <Card>
          <CardHeader
            title="Connect a store"
            description="In WordPress, open WooCommerce → Settings → Advanced → REST API, add a key with Read/Write permissions, and paste it here. The connection is tested before anything is saved."
          />
          <CardBody>
            <Form method="post" className="max-w-lg space-y-4" noValidate>
              <input type="hidden" name="intent" value="connect" />
              <Field
                label="Store address"
                name="storeUrl"
                inputMode="url"
                spellCheck={false}
                placeholder="https://shop.example.com"
                defaultValue={failed ? result?.values?.storeUrl : undefined}
                error={err("storeUrl")}
                disabled={!canUse}
              />
              <Field
                label="Consumer key"
                name="consumerKey"
                spellCheck={false}
                autoComplete="off"
                placeholder="ck_…"
                defaultValue={failed ? result?.values?.consumerKey : undefined}
                error={err("consumerKey")}
                disabled={!canUse}
              />
              <Field
                label="Consumer secret"
                name="consumerSecret"
                type="password"
                autoComplete="off"
                placeholder="cs_…"
                error={err("consumerSecret")}
                hint="Stored encrypted; never shown again."
                disabled={!canUse}
              />
              <IntentSubmit intent="connect" busyLabel="Testing the connection…" disabled={!canUse}>
                Connect store
              </IntentSubmit>
            </Form>
          </CardBody>
        </Card>
      )}

      {/* The integrations page's WordPress card links here (…/integrations/woocommerce#wordpress). */}
      <Card id="wordpress" className="scroll-mt-6">
        <CardHeader
          title="WordPress plugin"
          description="Adds the chat to your storefront and tells the bot who a signed-in customer is (signed with your identity verification secret)."
        />
        <CardBody className="space-y-3 text-sm text-zinc-700 dark:text-zinc-300">
          <p>
            Install it under Plugins → Add New → Upload Plugin, then enter this chatbot's id (<code>{data.chatbot.id}</code>) and the identity verification
            secret from{" "}
            <Link to={`${base}/settings/oryg`} className="underline">
              Origins &amp; access
            </Link>{" "}
            in Settings → Parley Chatbot.
          </p>
          <a
            href={`${base}/integrations/woocommerce/plugin.zip`}
            download
            className="inline-flex h-10 items-center rounded-lg border border-zinc-300 px-4 font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            Download the plugin (.zip)
          </a>
        </CardBody>
      </Card>
    </div>
  );
}
