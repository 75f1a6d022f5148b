import { Badge, ButtonLink, Card, CardBody, PageHeader, type BadgeTone } from "~/components/ui";

/** The integrations catalogue of one chatbot (route: app.$orgId.$chatbotId.integrations), each with the status Parley can read. */

type Counts = { active: number; unconfirmed: number; paused: number };

export type IntegrationsScreenData = {
  orgId: string;
  chatbot: { id: string; name: string };
  woo: { connected: boolean | null; detail: string | null };
  phone: { connected: boolean | null; detail: string | null };
  slack: Counts;
  webhook: Counts;
};

type Status = { label: string; tone: BadgeTone } | null;

function destinationStatus(c: Counts, noun: string): { status: Status; detail: string } {
  const plural = (n: number) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  if (c.active)
    return { status: { label: "Connected", tone: "success" }, detail: `${plural(c.active)} receiving events${c.paused ? `, ${c.paused} paused` : ""}.` };
  if (c.paused) return { status: { label: "Paused", tone: "warning" }, detail: `${plural(c.paused)} paused after repeated failures.` };
  if (c.unconfirmed) return { status: { label: "Waiting", tone: "warning" }, detail: `${plural(c.unconfirmed)} not confirmed yet.` };
  return { status: { label: "Not set up", tone: "neutral" }, detail: "" };
}

function IntegrationCard(props: { id: string; title: string; description: string; status: Status; detail?: string; href: string; action: string }) {
  return (
    <li>
      <Card aria-labelledby={`${props.id}-title`} className="h-full">
        <CardBody className="flex h-full flex-col gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={`${props.id}-title`} className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
              {props.title}
            </h2>
            {props.status ? <Badge tone={props.status.tone}>{props.status.label}</Badge> : null}
          </div>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{props.description}</p>
          {props.detail ? <p className="text-sm text-zinc-700 dark:text-zinc-300">{props.detail}</p> : null}
          <div className="mt-auto pt-1">
            <ButtonLink to={props.href} variant="secondary" size="sm" aria-label={`${props.action}: ${props.title}`}>
              {props.action}
            </ButtonLink>
          </div>
        </CardBody>
      </Card>
    </li>
  );
}

export function IntegrationsScreen({ data }: { data: IntegrationsScreenData }) {
  const base = `/app/${data.orgId}/${data.chatbot.id}`;
  const slack = destinationStatus(data.slack, "channel");
  const webhook = destinationStatus(data.webhook, "endpoint");
  const connection = (c: { connected: boolean | null }): Status =>
    c.connected === null ? null : c.connected ? { label: "Connected", tone: "success" } : { label: "Not connected", tone: "neutral" };
  const woo = connection(data.woo);
  return (
    <div>
      <PageHeader title="Integrations" description={`Connect ${data.chatbot.name} to your shop, your team's tools and the phone.`} />
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <IntegrationCard
          id="woocommerce"
          title="WooCommerce"
          description="Sync your products into the knowledge and let the bot search products and check orders."
          status={woo}
          detail={data.woo.detail ?? undefined}
          href={`${base}/integrations/woocommerce`}
          action={data.woo.connected ? "Manage" : "Set up"}
        />
        <IntegrationCard
          id="wordpress"
          title="WordPress plugin"
          description="Adds the chat widget to your WordPress site and passes signed-in customers to the bot. Parley cannot see whether the plugin is installed; the embed snippet works on any site too."
          status={null}
          href={`${base}/integrations/woocommerce#wordpress`}
          action="Get the plugin"
        />
        <IntegrationCard
          id="slack"
          title="Slack"
          description="Post new leads, handoffs and other events to a Slack channel."
          status={slack.status}
          detail={slack.detail}
          href={`${base}/settings/notifications`}
          action={data.slack.active || data.slack.paused || data.slack.unconfirmed ? "Manage" : "Set up"}
        />
        <IntegrationCard
          id="webhooks"
          title="Webhooks"
          description="Send signed JSON events to your own server."
          status={webhook.status}
          detail={webhook.detail}
          href={`${base}/settings/notifications`}
          action={data.webhook.active || data.webhook.paused || data.webhook.unconfirmed ? "Manage" : "Set up"}
        />
        <IntegrationCard
          id="phone"
          title="Phone"
          description="Let callers talk to the bot on a phone number of your Twilio account."
          status={connection(data.phone)}
          detail={data.phone.detail ?? undefined}
          href="/app/phone"
          action={data.phone.connected ? "Manage" : "Set up"}
        />
      </ul>
    </div>
  );
}
