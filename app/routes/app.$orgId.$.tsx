import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { notFound, requireOrg } from "~/.server/auth/guards";

// An unknown address under an organisation (e.g. /app/{orgId}/{chatbotId}/nothing): a 404 that
// the organisation layout's boundary shows inside the app frame. Authorised first, so another
// organisation's id answers the same 404 and no session answers the login redirect.
export async function loader({ request, context, params }: LoaderFunctionArgs): Promise<never> {
  await requireOrg(context.app, request, params.orgId);
  notFound();
}

export default function OrgNotFound() {
  return null;
}
