import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { notFound, requireOrg } from "~/.server/auth/guards";
import { readForm } from "~/.server/http/read-form";

// An unknown address under an organisation (e.g. /app/{orgId}/{chatbotId}/nothing): a 404 that
// the organisation layout's boundary shows inside the app frame. Authorised first, so another
// organisation's id answers the same 404 and no session answers the login redirect.
export async function loader({ request, context, params }: LoaderFunctionArgs): Promise<never> {
  await requireOrg(context.app, request, params.orgId);
  notFound();
}

/** A form posted to an unknown address under an organisation: the same checks, the same 404. */
export async function action(args: ActionFunctionArgs): Promise<never> {
  await readForm(args.request);
  return loader(args);
}

export default function OrgNotFound() {
  return null;
}
