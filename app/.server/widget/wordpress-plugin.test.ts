import { describe, expect, it } from "vitest";
import fixture from "../../../integrations/wordpress/parley-chatbot/tests/identity-fixture.json";
import { isValidVisitorHash } from "./identity";

// The WordPress plugin signs a signed-in customer's visitor id in PHP (integrations/wordpress/
// parley-chatbot/includes/identity.php); its PHP test checks it produces this fixture's hash, and
// this test checks the Worker accepts that very hash (npm test runs both).
describe("the WordPress plugin's identity signing", () => {
  it("produces a hash the Worker accepts, and only for that visitor id and secret", async () => {
    expect(fixture.visitorId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(await isValidVisitorHash(fixture.secret, fixture.visitorId, fixture.hash)).toBe(true);
    expect(await isValidVisitorHash(fixture.secret, "wp-user-43", fixture.hash)).toBe(false);
    expect(await isValidVisitorHash("another-secret", fixture.visitorId, fixture.hash)).toBe(false);
  });
});
