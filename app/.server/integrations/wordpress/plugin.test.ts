import { describe, expect, it } from "vitest";
import { crc32 } from "./zip";
import { pluginZip } from "./plugin";

// The download is a valid zip of the plugin's files (without its tests): entries read back from the
// central directory, each stored byte-for-byte with a matching CRC-32.
describe("the WordPress plugin zip", () => {
  it("holds the plugin's files under parley-chatbot/", () => {
    const bytes = pluginZip();
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = bytes.length - 22;
    expect(v.getUint32(end, true)).toBe(0x06054b50);
    const count = v.getUint16(end + 10, true);
    let at = v.getUint32(end + 16, true);
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      expect(v.getUint32(at, true)).toBe(0x02014b50);
      const size = v.getUint32(at + 24, true);
      const nameLen = v.getUint16(at + 28, true);
      const local = v.getUint32(at + 42, true);
      const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLen));
      const data = bytes.subarray(local + 30 + nameLen, local + 30 + nameLen + size);
      expect(crc32(data)).toBe(v.getUint32(at + 16, true));
      if (name.endsWith("parley-chatbot.php")) expect(new TextDecoder().decode(data)).toContain("Plugin Name: Parley Chatbot");
      names.push(name);
      at += 46 + nameLen;
    }
    expect(names).toEqual([
      "parley-chatbot/includes/identity.php",
      "parley-chatbot/includes/settings.php",
      "parley-chatbot/parley-chatbot.php",
      "parley-chatbot/readme.txt",
    ]);
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
  });
});
