// A real local push service, standing in for the browser vendor's: it takes
// the Web Push requests the server sends (RFC 8030), checks the VAPID
// authorization (RFC 8292: an ES256 JWT for this origin, signed by the key in
// `k`), and decrypts the aes128gcm body (RFC 8291) with the subscription's
// own private key and auth secret, the way the browser would.
import { createECDH, createPublicKey, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
// @ts-expect-error -- http_ece ships no types; decrypt(buffer, params) is its documented API.
import ece from "http_ece";

/** A browser's side of one subscription: the keys it would hand to PushSubscription.toJSON(). */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    json: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } },
    decrypt: (body: Buffer): string =>
      (ece.decrypt(body, { version: "aes128gcm", privateKey: ecdh, authSecret: auth }) as Buffer).toString("utf8"),
  };
}

export interface PushRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The VAPID public key the request was signed with (checked), or the reason it was refused. */
  vapid: { publicKey: string } | { error: string };
  status: number;
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>`: an ES256 signature by `k`, audience = this origin. */
function checkVapid(header: string | undefined, origin: string): PushRequest["vapid"] {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!m) return { error: `no vapid authorization: ${header}` };
  const [jwt, k] = [m[1]!, m[2]!];
  const [head, claims, sig] = jwt.split(".");
  const point = Buffer.from(k, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const ok = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(sig!, "base64url"),
  );
  if (!ok) return { error: "bad vapid signature" };
  const aud = (JSON.parse(Buffer.from(claims!, "base64url").toString()) as { aud?: string }).aud;
  return aud === origin ? { publicKey: k } : { error: `audience ${aud} is not ${origin}` };
}

export async function startPushService(answer: (req: PushRequest, n: number) => number = () => 201) {
  const requests: PushRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: PushRequest = {
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
        vapid: checkVapid(req.headers.authorization, origin),
        status: 0,
      };
      requests.push(r);
      r.status = "error" in r.vapid ? 403 : answer(r, requests.length);
      res.writeHead(r.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
