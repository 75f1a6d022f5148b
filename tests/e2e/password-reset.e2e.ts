import { afterAll, describe, expect, it } from "vitest";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";
import { latestMailTo, linkIn } from "./support/outbox";

describe("password reset", () => {
  afterAll(closeBrowser);

  it("resets with the emailed link, ends the other session, and the link works only once", async () => {
    const laptop = await newPage();
    const phone = await newPage();
    const email = uniqueEmail("reset");
    try {
      // Signed in on the "phone" (the session that must end).
      await signUpAndVerify(phone.page, { name: "Rita Reset", email, password: "first secret phrase" });

      // On the "laptop", forgot password.
      const p = laptop.page;
      await p.goto("/login");
      await p.getByRole("link", { name: "Forgot your password?" }).click();
      await p.getByRole("heading", { name: "Reset your password" }).waitFor();
      await p.getByLabel("Email").fill(email);
      await submitAndWait(p, "Send reset link");
      await p.getByText(`If an account exists for ${email}`).waitFor();

      const mail = await latestMailTo(baseURL(), email, { subject: /Reset your Parley password/ });
      const link = linkIn(mail, "/auth/reset-password");
      await p.goto(link);
      await p.getByLabel(/^New password/).fill("second secret phrase");
      await p.getByLabel("Repeat the new password").fill("second secret phrase");
      await submitAndWait(p, "Save new password", /\/app$/);

      // The phone's session is over.
      await phone.page.goto("/app");
      await phone.page.waitForURL(/\/login\?redirectTo=%2Fapp/);

      // The link refuses a second use.
      await p.goto(link);
      await p.getByRole("heading", { name: "This link no longer works" }).waitFor();

      // The old password no longer works; the new one does.
      await phone.page.getByLabel("Email").fill(email);
      await phone.page.getByLabel("Password").fill("first secret phrase");
      await submitAndWait(phone.page, "Sign in");
      await phone.page.getByText("That email and password do not match an account.").waitFor();
      await phone.page.getByLabel("Password").fill("second secret phrase");
      await submitAndWait(phone.page, "Sign in", /\/app$/);
    } finally {
      await laptop.close();
      await phone.close();
    }
  });
});
