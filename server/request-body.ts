// Request bodies read with a ceiling, before anything parses or authenticates
// them: an anonymous client must not be able to make the server buffer
// hundreds of megabytes (a 600 MB POST once answered 500 and four at once
// pushed the process past 3.7 GB).

/** The tRPC endpoint: the largest legitimate call (a loop definition, a batch of queries) is a few KB. */
export const TRPC_BODY_LIMIT = 1024 * 1024;
/** Job calls carry a loop id. */
export const JOB_BODY_LIMIT = 64 * 1024;

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${Math.round(limit / 1024)} KB`);
  }
}

/**
 * The body as text, or BodyTooLarge as soon as more than `limit` bytes
 * arrive (a declared Content-Length over the limit is refused unread).
 * Invalid UTF-8 becomes U+FFFD, as Request.text() does.
 */
export async function readBodyCapped(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > limit) throw new BodyTooLarge(limit);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The body as text, or the 413 answer to send when it is over `limit`. */
export async function bodyOr413(req: Request, limit: number): Promise<string | Response> {
  try {
    return await readBodyCapped(req, limit);
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    return Response.json({ error: { code: "PAYLOAD_TOO_LARGE", message: error.message } }, { status: 413 });
  }
}
