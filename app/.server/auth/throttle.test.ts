import { describe, expect, it } from "vitest";
import { clientIp } from "./throttle";

const req = (headers: Record<string, string>) => new Request("https://parley.example/login", { headers });

describe("clientIp: which address a throttle counts", () => {
  it("production: only Cloudflare's CF-Connecting-IP; X-Forwarded-For is the client's to forge and is ignored", () => {
    expect(clientIp(req({ "CF-Connecting-IP": "203.0.113.7", "X-Forwarded-For": "198.51.100.1" }), true)).toBe("203.0.113.7");
    expect(clientIp(req({ "X-Forwarded-For": "198.51.100.1" }), true)).toBe("unknown");
    expect(clientIp(req({}), true)).toBe("unknown");
  });

  it("local runs (no edge): CF-Connecting-IP, then the first X-Forwarded-For address, then 'local'", () => {
    expect(clientIp(req({ "CF-Connecting-IP": "203.0.113.7" }), false)).toBe("203.0.113.7");
    expect(clientIp(req({ "X-Forwarded-For": "198.51.100.1, 10.0.0.1" }), false)).toBe("198.51.100.1");
    expect(clientIp(req({}), false)).toBe("local");
  });
});
