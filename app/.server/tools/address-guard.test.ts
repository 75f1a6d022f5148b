import { describe, expect, it } from "vitest";
import { checkToolAddress, isPublicHost, privateNetworkAllowed } from "./address-guard";

const refused = (url: string) => checkToolAddress(url, { allowPrivate: false });

describe("tool address guard", () => {
  it("refuses loopback, private, link-local and metadata addresses in every IPv4 spelling", () => {
    for (const url of [
      "http://localhost/x",
      "http://LOCALHOST./x",
      "http://api.localhost/x",
      "http://127.0.0.1:8080/",
      "http://127.1/",
      "http://2130706433/", // decimal 127.0.0.1
      "http://0177.0.0.1/", // octal
      "http://0x7f.0.0.1/", // hex
      "http://0x7f000001/",
      "http://0/",
      "http://0.0.0.0/",
      "http://10.1.2.3/",
      "http://172.16.0.1/",
      "http://172.31.255.255/",
      "http://192.168.1.1/",
      "http://100.64.0.1/",
      "http://169.254.169.254/latest/meta-data/",
      "http://2852039166/", // decimal 169.254.169.254
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://printer.local/",
      "http://intranet/",
      "http://224.0.0.1/",
      "http://255.255.255.255/",
      "http://127.0.0.1.nip.io/",
      "http://10.0.0.1.sslip.io/",
    ]) {
      const r = refused(url);
      expect(r.ok, url).toBe(false);
      if (!r.ok) expect(r.reason, url).toBe("private");
    }
  });

  it("refuses IPv6 loopback, unspecified, mapped, unique-local, link-local and NAT64 of private addresses", () => {
    for (const url of [
      "http://[::1]/",
      "http://[::]/",
      "http://[0:0:0:0:0:0:0:1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://[::ffff:a9fe:a9fe]/", // mapped 169.254.169.254
      "http://[fc00::1]/",
      "http://[fd12:3456::1]/",
      "http://[fe80::1]/",
      "http://[ff02::1]/",
      "http://[64:ff9b::a00:1]/", // NAT64 of 10.0.0.1
      "http://[2002:c0a8:101::1]/", // 6to4 of 192.168.1.1
      "http://[::127.0.0.1]/",
    ])
      expect(refused(url).ok, url).toBe(false);
  });

  it("refuses other schemes and credentials in the URL, even when private addresses are allowed", () => {
    for (const url of ["ftp://example.com/", "file:///etc/passwd", "gopher://example.com/", "javascript:alert(1)", "data:text/plain,x"]) {
      const r = checkToolAddress(url, { allowPrivate: true });
      expect(r.ok, url).toBe(false);
    }
    expect(checkToolAddress("https://user:pw@example.com/", { allowPrivate: true }).ok).toBe(false);
    expect(checkToolAddress("not a url", { allowPrivate: true }).ok).toBe(false);
  });

  it("lets public names and addresses through", () => {
    for (const url of [
      "https://api.example.com/v1/bookings/1",
      "http://93.184.216.34/",
      "https://[2606:4700::6810:84e5]/",
      "https://8.8.8.8/",
      "https://172.32.0.1/",
    ])
      expect(refused(url).ok, url).toBe(true);
    expect(isPublicHost("example.com")).toBe(true);
  });

  it("allows private addresses only with the flag and never in production", () => {
    expect(checkToolAddress("http://127.0.0.1:9000/", { allowPrivate: true }).ok).toBe(true);
    expect(privateNetworkAllowed({ ENVIRONMENT: "development", TOOLS_ALLOW_PRIVATE_NETWORK: "1" })).toBe(true);
    expect(privateNetworkAllowed({ ENVIRONMENT: "development" })).toBe(false);
    expect(privateNetworkAllowed({ ENVIRONMENT: "development", TOOLS_ALLOW_PRIVATE_NETWORK: "true" })).toBe(false);
    expect(privateNetworkAllowed({ ENVIRONMENT: "production", TOOLS_ALLOW_PRIVATE_NETWORK: "1" })).toBe(false);
  });
});
