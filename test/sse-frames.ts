// Reads a server-sent events response in Node (tests and the benchmark) with
// `eventsource-parser`, the parser the `eventsource` package is built on: the
// protocol tests look at frames EventSource would not hand them (ping,
// connected, the raw ids).
import { EventSourceParserStream } from "eventsource-parser/stream";

export interface SseFrame {
  /** "message" when the frame names no event. */
  event: string;
  data: string;
  /** Present when the frame carried an id: line. */
  id?: string;
}

export async function* readSseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame, void, undefined> {
  const decoded = body.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>);
  const reader = decoded.pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield { event: value.event ?? "message", data: value.data, id: value.id };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
