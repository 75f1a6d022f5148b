import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, newPage } from "./support/browser";
import { executeD1, sqlString } from "./support/d1";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";

// Bad input in the browser: a message at the field, what was typed still there, nothing saved.
describe("form validation", () => {
  afterAll(closeBrowser);

  it("sign-up keeps the name and email and refuses a short or common password", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      const email = uniqueEmail("forms");
      await p.goto("/signup");
      await p.getByLabel("Name").fill("Frances Form");
      await p.getByLabel("Work email").fill(email);
      await p.getByLabel("Password").fill("short");
      await submitAndWait(p, "Create account");
      await p.getByText("Use at least 8 characters.").waitFor();
      expect(await p.getByLabel("Name").inputValue()).toBe("Frances Form");
      expect(await p.getByLabel("Work email").inputValue()).toBe(email);
      await p.locator('input[name="password"][aria-invalid="true"]').waitFor();

      await p.getByLabel("Password").fill("password123");
      await submitAndWait(p, "Create account");
      await p.getByText(/too common/).waitFor();
      expect(new URL(p.url()).pathname).toBe("/signup");
    } finally {
      await t.close();
    }
  });

  it("organisation, chatbot and invitation forms explain what is wrong and keep input", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await signUpAndVerify(p, { name: "Felix Forms", email: uniqueEmail("felix"), password: "orchard lamp 9" });
      // Empty organisation name.
      await p.getByLabel("Organisation name").fill("   ");
      await submitAndWait(p, "Create organisation");
      expect(new URL(p.url()).pathname).toBe("/app");
      await p.locator('input[aria-invalid="true"]').first().waitFor();

      await p.getByLabel("Organisation name").fill("Forms Ltd");
      await submitAndWait(p, "Create organisation", /\/app\/org_/);
      const orgPath = new URL(p.url()).pathname;

      // A blank chatbot name is refused at the field.
      await p.getByLabel("Chatbot name").fill("   ");
      await submitAndWait(p, "Create chatbot");
      // Wait for the re-rendered form (a submit before hydration reloads the whole document).
      await p.locator('#new-chatbot-name[aria-invalid="true"]').waitFor();
      expect(await p.getByRole("navigation", { name: "Chatbots" }).count()).toBe(0); // nothing saved

      // Free has room for one member only: the invite form is shown disabled, naming the plan that allows more.
      await p.goto(`${orgPath}/members`);
      expect(await p.getByRole("button", { name: "Send invitation" }).isDisabled()).toBe(true);
      expect(await p.locator("#invite-limit-note").textContent()).toContain("moving to the Starter plan (3 members)");

      // An invalid invitation email keeps the typed value (on a plan with room).
      await executeD1(`UPDATE organisations SET plan = 'starter' WHERE id = ${sqlString(orgPath.split("/")[2])}`);
      await p.reload();
      await p.getByLabel("Email address").fill("not-an-email");
      await submitAndWait(p, "Send invitation");
      expect(await p.getByLabel("Email address").inputValue()).toBe("not-an-email");
      await p
        .getByText(/valid email/i)
        .first()
        .waitFor();
      await p.getByText("No pending invitations").waitFor();
    } finally {
      await t.close();
    }
  });

  it("an uncaught browser error shows the client-side exception screen", async () => {
    const t = await newPage();
    try {
      await t.page.goto("/dev/client-error");
      const host = new URL(t.page.url()).host;
      await t.page
        .getByText(`Application error: a client-side exception has occurred while loading ${host} (see the browser console for more information).`)
        .waitFor();
    } finally {
      await t.close();
    }
  });
});
