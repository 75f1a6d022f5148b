import type { ServiceContext } from "../context";
import { devOutbox } from "../db/schema";
import { newId } from "../auth/crypto";

export type Mail = { to: string; subject: string; text: string };

class MailNotConfiguredError extends Error {}

/**
 * The one way Parley sends email. Development: stored in the dev outbox (/dev/outbox) and
 * printed to the console. Production: POSTed to an HTTP email API (Resend-compatible JSON).
 */
export async function sendMail(ctx: Pick<ServiceContext, "env" | "db" | "production">, mail: Mail): Promise<void> {
  const { env, db } = ctx;
  if (!ctx.production) {
    await db.insert(devOutbox).values({ id: newId("m_"), to: mail.to, subject: mail.subject, text: mail.text });
    console.log(`[mail] to=${mail.to} subject=${JSON.stringify(mail.subject)}\n${mail.text}`);
    return;
  }
  if (!env.MAIL_API_URL || !env.MAIL_API_KEY) throw new MailNotConfiguredError("MAIL_API_URL and MAIL_API_KEY must be set");
  const res = await fetch(env.MAIL_API_URL, {
    method: "POST",
    headers: { Authorization: `Bearer ${env.MAIL_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ from: env.MAIL_FROM, to: [mail.to], subject: mail.subject, text: mail.text }),
  });
  if (!res.ok) throw new Error(`mail API answered ${res.status}`);
}
