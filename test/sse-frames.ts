// A minimal server-sent events parser (WHATWG "event stream interpretation"),
// for Node code that reads an SSE response with fetch: tests, the benchmark,
// and the EventSource stand-in used where Node has no EventSource.

export interface SseFrame {
  /** "message" when the frame names no event. */
  event: string;
  data: string;
  /** False for frames without a data: line, which EventSource never dispatches. */
  hasData: boolean;
  /** Present when the frame carried an id: line (possibly empty). */
  id?: string;
  /** Comment lines (": ..."), e.g. keep-alives. */
  comments: string[];
}

export async function* readSseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame, void, undefined> {
  const decoder = new TextDecoder();
  let buffer = "";
  let frame: { event?: string; data: string[]; id?: string; comments: string[] } = { data: [], comments: [] };
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A lone CR at the end may be the first half of a CRLF still in flight.
        if (newline === buffer.length - 1 && buffer[newline] === "\r") break;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
        if (line === "") {
          if (frame.data.length || frame.comments.length || frame.event !== undefined || frame.id !== undefined) {
            yield {
              event: frame.event || "message",
              data: frame.data.join("\n"),
              hasData: frame.data.length > 0,
              id: frame.id,
              comments: frame.comments,
            };
          }
          frame = { data: [], comments: [] };
          continue;
        }
        if (line.startsWith(":")) {
          frame.comments.push(line.slice(1).trimStart());
          continue;
        }
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "data") frame.data.push(value);
        else if (field === "event") frame.event = value;
        else if (field === "id" && !value.includes("\0")) frame.id = value;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
