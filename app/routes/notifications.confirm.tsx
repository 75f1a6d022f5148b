import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { AuthLayout } from "~/components/auth/auth-layout";
import { Button, ButtonLink } from "~/components/ui";
import { confirmDestination, findConfirmation } from "~/.server/notifications/destinations";
import { readForm } from "~/.server/http/read-form";

// The link in a "Confirm notifications" email (app/.server/notifications/destinations.ts). Opening
// it shows what is being confirmed; only the button confirms, so a mail scanner that follows links
// confirms nothing. No session needed: the address may belong to someone without an account.

type Pending = { email: string; chatbotName: string; orgName: string };
type State = { state: "invalid" } | ({ state: "pending" } & Pending) | ({ state: "confirmed" } & Pending);

export const meta: MetaFunction = () => [{ title: "Confirm notifications · Parley" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const found = await findConfirmation(context.app, token);
  if (!found) return data<State>({ state: "invalid" }, { status: 404 });
  return data<State>({ state: "pending", email: found.email, chatbotName: found.chatbotName, orgName: found.orgName });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const confirmed = await confirmDestination(context.app, String(form.get("token") ?? ""));
  if (!confirmed) return data<State>({ state: "invalid" }, { status: 404 });
  return data<State>({ state: "confirmed", ...confirmed });
}

export default function ConfirmNotifications() {
  const loaded = useLoaderData<typeof loader>() as State;
  const acted = useActionData<typeof action>() as State | undefined;
  const navigation = useNavigation();
  const token = new URLSearchParams(useLocation().search).get("token") ?? "";
  const view = acted ?? loaded;
  if (view.state === "invalid")
    return (
      <AuthLayout
        title="This link is no longer valid"
        description="Confirmation links work once and expire after 72 hours. Ask the person who added your address to send a new link from the chatbot's notification settings."
      >
        <ButtonLink to="/" variant="secondary">
          Parley home
        </ButtonLink>
      </AuthLayout>
    );
  if (view.state === "confirmed")
    return (
      <AuthLayout
        title="Notifications confirmed"
        description={`${view.email} now receives the notifications chosen for the chatbot “${view.chatbotName}” of ${view.orgName}. To stop them later, ask ${view.orgName} to remove this address.`}
      >
        <ButtonLink to="/" variant="secondary">
          Parley home
        </ButtonLink>
      </AuthLayout>
    );
  return (
    <AuthLayout
      title="Confirm notifications"
      description={`Someone at ${view.orgName} asked for ${view.email} to receive notifications from the chatbot “${view.chatbotName}” on Parley, such as new leads and visitors asking for a person.`}
    >
      <Form method="post" className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <Button type="submit" disabled={navigation.state !== "idle"}>
          {navigation.state !== "idle" ? "Confirming…" : "Confirm notifications"}
        </Button>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">If you did not expect this, close this page: nothing is sent until you confirm.</p>
      </Form>
    </AuthLayout>
  );
}
