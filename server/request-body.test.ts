import { describe, expect, it } from "vitest";
import { BodyTooLarge, readBodyCapped } from "./request-body";

/** A body that streams `chunks` chunks of 64 KB, counting how many were pulled. */
function streamed(chunks: number) {
  const pulled = { count: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.count === chunks) return controller.close();
      pulled.count++;
      controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
    },
  });
  return { pulled, req: new Request("http://x/", { method: "POST", body, duplex: "half" } as RequestInit) };
}

describe("readBodyCapped", () => {
  it("refuses a declared Content-Length over the limit without reading the body", async () => {
    const { pulled, req } = streamed(1000);
    const declared = new Request(req, { headers: { "content-length": String(1000 * 64 * 1024) } });
    await expect(readBodyCapped(declared, 1024 * 1024)).rejects.toBeInstanceOf(BodyTooLarge);
    expect(pulled.count).toBeLessThan(5); // the stream's own read-ahead, not the body
  });

  it("stops reading a chunked flood as soon as it passes the limit", async () => {
    const { pulled, req } = streamed(10_000); // 640 MB if read whole
    await expect(readBodyCapped(req, 1024 * 1024)).rejects.toThrow(/larger than 1024 KB/);
    expect(pulled.count).toBeLessThan(20);
  });

  it("returns a body within the limit as text, invalid UTF-8 as U+FFFD", async () => {
    expect(await readBodyCapped(new Request("http://x/", { method: "POST", body: '{"a":1}' }), 100)).toBe('{"a":1}');
    const bytes = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]);
    expect(await readBodyCapped(new Request("http://x/", { method: "POST", body: bytes }), 100)).toBe("{\uFFFD\uFFFD}");
  });
});
