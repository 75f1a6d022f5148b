import { describe, expect, it } from "vitest";
import { defaultResultText, fillUrlTemplate, renderResultTemplate } from "./template";

describe("custom tool templates", () => {
  it("URL-encodes every placeholder value, so a value cannot add a path, a query or a host", () => {
    expect(fillUrlTemplate("https://api.example.com/bookings/{id}?x=1", { id: "../admin?y=2#z" }).url).toBe(
      "https://api.example.com/bookings/..%2Fadmin%3Fy%3D2%23z?x=1",
    );
    expect(fillUrlTemplate("https://api.example.com/b/{id}", {}).url).toBe("https://api.example.com/b/");
  });

  it("renders result and parameter paths, and nothing else", () => {
    const data = { result: { id: "B-1", status: "confirmed", items: [{ name: "Soup" }], nested: { a: { b: 2 } } }, params: { people: 4 } };
    expect(renderResultTemplate("Your booking {{result.id}} is {{ result.status }} for {{params.people}}.", data)).toBe("Your booking B-1 is confirmed for 4.");
    expect(renderResultTemplate("{{result.items.0.name}} / {{result.nested.a.b}} / {{result.missing.x}}", data)).toBe("Soup / 2 /");
    // No code, no prototype walking: only own data.
    expect(renderResultTemplate("{{result.constructor}}{{result.__proto__}}{{ 1+1 }}{{process.env}}", data)).toBe("{{ 1+1 }}{{process.env}}");
  });

  it("words a result without a template", () => {
    expect(defaultResultText({ id: "B-1", status: "ok", list: [1] })).toBe("Done. id: B-1; status: ok.");
    expect(defaultResultText("plain")).toBe("Done.");
  });
});
