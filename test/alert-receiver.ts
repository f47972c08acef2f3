// A real local HTTP server receiving alert webhooks, with a scripted
// behaviour per request (answer a status, hang, or accept), and the
// de-duplication a careful receiver does with the Idempotency-Key header.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedAlert {
  headers: IncomingMessage["headers"];
  body: string;
  json: Record<string, unknown>;
  status: number | "hung";
}

export type Behaviour = (attempt: number, req: ReceivedAlert) => number | "hang";

export interface AlertReceiver {
  url: string;
  /** Every request, in arrival order, whatever was answered. */
  requests: ReceivedAlert[];
  /** Bodies accepted once per Idempotency-Key (what the receiving app would act on). */
  accepted: Map<string, ReceivedAlert>;
  close(): Promise<void>;
}

export async function startAlertReceiver(behaviour: Behaviour = () => 200): Promise<AlertReceiver> {
  const requests: ReceivedAlert[] = [];
  const accepted = new Map<string, ReceivedAlert>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const received: ReceivedAlert = { headers: req.headers, body, json: JSON.parse(body), status: 0 };
      requests.push(received);
      const answer = behaviour(requests.length, received);
      if (answer === "hang") {
        received.status = "hung";
        return; // never answers; the sender must give up by itself
      }
      received.status = answer;
      const key = String(req.headers["idempotency-key"]);
      if (answer >= 200 && answer < 300 && !accepted.has(key)) accepted.set(key, received);
      res.writeHead(answer, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    accepted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
