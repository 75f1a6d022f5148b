import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Badge, Card, CardBody, CardHeader, PageHeader } from "~/components/ui";
import { requireChatbot } from "~/.server/auth/guards";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.chatbot.name} · ${data.orgName} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { org, chatbot } = await requireChatbot(context.app, request, params, "chatbot:view");
  return {
    orgName: org.name,
    orgId: org.id,
    chatbot: { id: chatbot.id, name: chatbot.name, visibility: chatbot.visibility, createdAt: chatbot.createdAt, updatedAt: chatbot.updatedAt },
  };
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

export default function ChatbotHome() {
  const { chatbot, orgId } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <PageHeader title={chatbot.name} description="Chatbot overview." />
      <Card>
        <CardHeader title="Details" />
        <CardBody>
          <dl className="grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-zinc-600 dark:text-zinc-400">Chatbot ID</dt>
              <dd className="mt-1 font-mono">{chatbot.id}</dd>
            </div>
            <div>
              <dt className="text-zinc-600 dark:text-zinc-400">Visibility</dt>
              <dd className="mt-1">
                <Badge tone={chatbot.visibility === "public" ? "success" : "neutral"}>{chatbot.visibility === "public" ? "Public" : "Private"}</Badge>
              </dd>
            </div>
            <div>
              <dt className="text-zinc-600 dark:text-zinc-400">Created</dt>
              <dd className="mt-1">{dateFormat.format(chatbot.createdAt)}</dd>
            </div>
            <div>
              <dt className="text-zinc-600 dark:text-zinc-400">Last changed</dt>
              <dd className="mt-1">{dateFormat.format(chatbot.updatedAt)}</dd>
            </div>
          </dl>
          <p className="mt-6 text-sm">
            <Link className="font-medium text-brand-700 underline dark:text-brand-300" to={`/app/${orgId}`}>
              Rename or delete this chatbot from the organisation page
            </Link>
          </p>
        </CardBody>
      </Card>
    </div>
  );
}
