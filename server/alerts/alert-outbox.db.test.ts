// The alert outbox on both databases, against real local HTTP receivers:
// every alert kind arrives once and signed; a rolled-back transaction sends
// nothing; approval, scoping, Slack/Discord formats, the SSRF guard, and the
// server-side alarms.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { admin, alertHarness, eventsOfEveryKind, key } from "../../test/alert-harness";
import { describeEachProvider } from "../../test/db-providers";
import { ALERT_KINDS } from "../alert-kinds";
import { appendEvents } from "../db/events.repo";
import { inTransaction } from "../db/tx";
import { createAlertChannel, muteLoopAlert, sendTestAlert, unmuteLoopAlert } from "./alert-channels.service";
import { verifySignature } from "./alert-signing";
import { checkAlarms } from "./alarm-check.service";

describeEachProvider("alert outbox", ({ db }) => {
  const { receiver, deps, newLoop, channel, drain, disableAll } = alertHarness(db);

  it("each alert kind arrives once, signed, with the loop's state and a deep link; other events raise none", async () => {
    await disableAll();
    const hook = await receiver();
    const { channel: ch, signingSecret } = await channel(hook.url);
    const loopId = await newLoop();
    await inTransaction(db().prisma, (tx) => appendEvents(tx, eventsOfEveryKind(loopId)));
    const rows = await db().prisma.alertDelivery.findMany({ where: { channelId: ch.id } });
    expect(rows.map((r) => r.kind).sort()).toEqual([...ALERT_KINDS].sort());
    await drain(deps());
    expect(hook.requests).toHaveLength(ALERT_KINDS.length);
    expect(hook.requests.map((r) => r.json.kind).sort()).toEqual([...ALERT_KINDS].sort());
    const now = Math.floor(Date.now() / 1000);
    for (const r of hook.requests) {
      expect(verifySignature(signingSecret, r.body, r.headers["x-ralph-signature"] as string, now)).toBe(true);
      expect(verifySignature("whsec_wrong", r.body, r.headers["x-ralph-signature"] as string, now)).toBe(false);
      expect(r.headers["idempotency-key"]).toBe(r.json.id);
      expect(r.json).toMatchObject({
        version: 1,
        url: `https://ralph.example/loops/${loopId}`,
        summary: "running, iteration 4/10, $0.50 of $2.00 spent, health healthy",
        loop: { id: loopId, name: "Nightly refactor" },
      });
    }
    const byKind = Object.fromEntries(hook.requests.map((r) => [r.json.kind, r.json.title]));
    expect(byKind.approval).toBe(
      `"Nightly refactor" is waiting for approval (before_completion); decides itself at ${new Date(1_900_000_000_000).toISOString()}`,
    );
    expect(byKind.budget).toBe('"Nightly refactor" crossed its budget threshold: 80% used (ALERT_ONLY)');
    expect(byKind.runaway).toBe('"Nightly refactor": runaway (75 iterations in the last minute)');
    expect(byKind.loop_ended).toBe('"Nightly refactor" stopped (max_iterations)');
    expect(byKind.usage_limit).toBe(
      `"Nightly refactor" is waiting for the provider's usage limit until ${new Date(1_900_000_000_000).toISOString()}`,
    );
    expect(new Set(hook.requests.map((r) => r.headers["idempotency-key"])).size).toBe(ALERT_KINDS.length);
    // Nothing more to send, ever.
    await drain(deps());
    expect(hook.requests).toHaveLength(ALERT_KINDS.length);
  });

  it("the outbox is transactional: a rolled-back event sends nothing; muted and unsubscribed kinds are not queued", async () => {
    await disableAll();
    const hook = await receiver();
    const { channel: ch } = await channel(hook.url, ["loop_ended", "budget"]);
    const loopId = await newLoop();
    await expect(
      inTransaction(db().prisma, async (tx) => {
        await appendEvents(tx, [{ loopId, type: "halted", payload: { stopType: "completion", status: "completed" } }]);
        throw new Error("the step's commit failed");
      }),
    ).rejects.toThrow(/commit failed/);
    expect(await db().prisma.alertDelivery.count({ where: { channelId: ch.id } })).toBe(0);
    await muteLoopAlert(
      db(),
      { loopId, kind: "budget", minutes: 60 },
      { actor: admin, newId: randomUUID, now: Date.now() },
    );
    await inTransaction(db().prisma, (tx) => appendEvents(tx, eventsOfEveryKind(loopId)));
    const queued = await db().prisma.alertDelivery.findMany({ where: { channelId: ch.id } });
    expect(queued.map((r) => r.kind)).toEqual(["loop_ended"]);
    await drain(deps());
    expect(hook.requests.map((r) => r.json.kind)).toEqual(["loop_ended"]);
  });

  it("muting or unmuting an unknown loop is a not-found error, not a foreign-key failure", async () => {
    const unknown = randomUUID();
    await expect(unmuteLoopAlert(db(), unknown, "budget", admin)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      muteLoopAlert(
        db(),
        { loopId: unknown, kind: "budget", minutes: 5 },
        { actor: admin, newId: randomUUID, now: Date.now() },
      ),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("an approval alert states the gate's deadline and its default action", async () => {
    await disableAll();
    const hook = await receiver();
    await channel(hook.url, ["approval"]);
    const loopId = await newLoop("Gated");
    const gateId = randomUUID();
    const deadline = new Date(Date.now() + 3_600_000);
    await inTransaction(db().prisma, async (tx) => {
      await tx.approval.create({
        data: { id: gateId, loopId, iteration: 4, gate: "completion", deadlineAt: deadline, defaultAction: "reject" },
      });
      await appendEvents(tx, [
        { loopId, type: "approval_requested", payload: { gateId, kind: "completion", deadlineAt: deadline.getTime() } },
      ]);
    });
    await drain(deps());
    expect(hook.requests[0]!.json).toMatchObject({
      title: `"Gated" is waiting for approval (completion); rejects by itself at ${deadline.toISOString()}`,
      data: { gateId, defaultAction: "reject", deadlineAt: deadline.toISOString() },
    });
  });

  it("a channel limited to some loops gets only their alerts; a global one gets every loop's", async () => {
    await disableAll();
    const everyone = await receiver();
    const team = await receiver();
    const mine = await newLoop("Team loop");
    const other = await newLoop("Someone else's");
    await channel(everyone.url, ["loop_ended"]);
    await createAlertChannel(
      db(),
      key,
      { name: `team-${randomUUID()}`, kind: "webhook", url: team.url, events: ["loop_ended"], loopIds: [mine] },
      { actor: admin, newId: randomUUID, allowHosts: ["127.0.0.1"] },
    );
    for (const loopId of [mine, other])
      await inTransaction(db().prisma, (tx) =>
        appendEvents(tx, [{ loopId, type: "halted", payload: { stopType: "completion", status: "completed" } }]),
      );
    await drain(deps());
    const loopOf = (r: { json: Record<string, unknown> }) => (r.json.loop as { id: string }).id;
    expect(everyone.requests.map(loopOf).sort()).toEqual([mine, other].sort());
    expect(team.requests.map(loopOf)).toEqual([mine]);
  });

  it("Slack gets Block Kit, Discord an embed; send test works; the SSRF guard refuses private addresses", async () => {
    await disableAll();
    const slackHook = await receiver();
    const discordHook = await receiver();
    const { channel: slack } = await channel(slackHook.url, ["approval"], "slack");
    await channel(discordHook.url, ["approval"], "discord");
    const loopId = await newLoop("Ship docs");
    await inTransaction(db().prisma, (tx) =>
      appendEvents(tx, [
        { loopId, type: "approval_requested", payload: { gateId: "g", kind: "every_n", deadlineAt: null } },
      ]),
    );
    await drain(deps());
    expect(slackHook.requests[0]!.json).toEqual({
      text: '"Ship docs" is waiting for approval (every_n): running, iteration 4/10, $0.50 of $2.00 spent, health healthy',
      blocks: [
        {
          type: "section",
          text: { type: "mrkdwn", text: expect.stringMatching(/^\*"Ship docs" is waiting for approval/) },
        },
        {
          type: "actions",
          elements: [expect.objectContaining({ type: "button", url: `https://ralph.example/loops/${loopId}` })],
        },
      ],
    });
    expect(discordHook.requests[0]!.json).toMatchObject({
      content: '"Ship docs" is waiting for approval (every_n)',
      embeds: [{ url: `https://ralph.example/loops/${loopId}` }],
    });

    await sendTestAlert(db(), slack.id, { newId: randomUUID, now: Date.now() });
    await drain(deps());
    expect(slackHook.requests[1]!.json.text).toMatch(/^Test alert from Ralph Control/);

    await expect(
      createAlertChannel(
        db(),
        key,
        { name: "metadata", kind: "webhook", url: "http://169.254.169.254/latest", events: ["approval"] },
        { actor: admin, newId: randomUUID, allowHosts: [] },
      ),
    ).rejects.toThrow(/Refused to call 169\.254\.169\.254/);
    // A hostname that resolves to loopback passes the URL check, and is refused at connect time.
    await disableAll();
    const local = await receiver();
    const { channel: sneaky } = await createAlertChannel(
      db(),
      key,
      {
        name: `sneaky-${randomUUID()}`,
        kind: "webhook",
        url: local.url.replace("127.0.0.1", "localhost"),
        events: ["approval"],
      },
      { actor: admin, newId: randomUUID, allowHosts: [] },
    );
    await sendTestAlert(db(), sneaky.id, { newId: randomUUID, now: Date.now() });
    await drain(deps({ allowHosts: [] }));
    expect(local.requests).toHaveLength(0);
    const refused = await db().prisma.alertDelivery.findFirstOrThrow({ where: { channelId: sneaky.id } });
    expect(refused).toMatchObject({
      status: "dead",
      attempts: 1,
      lastError: expect.stringMatching(/^Refused to call localhost/),
    });
  });

  it("the runaway and silent-agent alarms are raised on the server, once per quiet period, and reach the channel", async () => {
    await disableAll();
    const hook = await receiver();
    await channel(hook.url, ["runaway", "health"]);
    const now = Date.now();
    const runaway = await newLoop("Tight loop");
    await db().prisma.loop.update({ where: { id: runaway }, data: { lastHeartbeatAt: new Date(now) } });
    await db().prisma.iteration.createMany({
      data: Array.from({ length: 75 }, (_, i) => ({
        id: `${runaway}:${i + 1}`,
        loopId: runaway,
        number: i + 1,
        status: "succeeded",
        agentId: `a${i}`,
        input: "",
        startedAt: new Date(now - 50_000 + i * 600),
        finishedAt: new Date(now - 50_000 + i * 600 + 10),
      })),
    });
    // An agent in flight that has printed nothing for 5 minutes (the runtime's own lease heartbeat is fresh).
    const silent = await newLoop("Quiet agent");
    await db().prisma.loop.update({
      where: { id: silent },
      data: { lastHeartbeatAt: new Date(now), inflightIteration: 1, inflightStartedAt: new Date(now - 5 * 60_000) },
    });
    const healthy = await newLoop("Fine");
    await db().prisma.loop.update({ where: { id: healthy }, data: { lastHeartbeatAt: new Date(now) } });

    const raised = await checkAlarms(db(), now);
    expect(raised.filter((a) => ([runaway, silent, healthy] as string[]).includes(a.loopId))).toEqual(
      expect.arrayContaining([
        { loopId: runaway, alarm: "runaway", detail: "75 iterations in the last 60 s (limit 60)", action: "alert" },
        { loopId: silent, alarm: "silent", detail: "no output or heartbeat for 300 s", action: "alert" },
      ]),
    );
    expect(raised.filter((a) => ([runaway, silent, healthy] as string[]).includes(a.loopId))).toHaveLength(2);
    // Not again within the quiet period.
    expect(
      (await checkAlarms(db(), now + 1_000)).filter((a) => ([runaway, silent] as string[]).includes(a.loopId)),
    ).toEqual([]);
    await drain(deps());
    const mine = hook.requests.filter((r) =>
      ([runaway, silent] as string[]).includes((r.json.loop as { id: string }).id),
    );
    expect(mine.map((r) => [r.json.kind, r.json.title]).sort()).toEqual([
      ["health", '"Quiet agent": silent agent (no output or heartbeat for 300 s)'],
      ["runaway", '"Tight loop": runaway (75 iterations in the last 60 s (limit 60))'],
    ]);
    await db().prisma.loop.updateMany({
      where: { id: { in: [runaway, silent, healthy] } },
      data: { status: "stopped" },
    });
  });
});
