import { z } from "zod";
import type { Env } from "~/.server/env";

const email = z.email();

/** The operator's public contact address (CONTACT_EMAIL), or null when unset or not an email address. */
export function contactEmail(env: Pick<Env, "CONTACT_EMAIL">): string | null {
  const parsed = email.safeParse(env.CONTACT_EMAIL?.trim());
  return parsed.success ? parsed.data : null;
}
