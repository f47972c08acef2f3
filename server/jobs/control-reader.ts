// The runtime's one way to read operator requests (the engine's readControls
// hook), through the loop store.
import type { ControlAck, ControlRequest } from "../engine";
import type { LoopStore } from "../db/loop-store/loop-store.port";
import type { PendingControl } from "../db/step-write";
import { engineControlRequest } from "../loops/step-rows";
import type { LeaseHold } from "./lease-keeper";
import { SpendReports } from "./spend-reports";

/**
 * It remembers who sent each request, so stored events keep the user id, and
 * answers requests the engine cannot read as rejected.
 */
export class ControlReader {
  readonly actorIds = new Map<string, string | null>();
  private unreadable: PendingControl[] = [];
  /** What the last step commit read in its transaction: the next read takes it instead of the database. */
  private primed: PendingControl[] | undefined;

  constructor(
    private readonly store: LoopStore,
    private readonly loopId: string,
    /** Late spend reports ride with the requests; they are not the engine's to read. */
    readonly spendReports = new SpendReports(),
  ) {}

  /**
   * The kill watch's read while the iteration runs: a real read only when the
   * lease keeper's last heartbeat saw requests pending for this loop (or could
   * not tell), so an idle slice costs the database nothing between safe points.
   */
  poll = (hold: LeaseHold) => async (): Promise<ControlRequest[]> => (hold.controlsPending ? this.read() : []);

  /**
   * The pending requests a step commit returned. A request stored after that commit is not among them;
   * it is no later for it: the iteration's Halt phase reads the database, as for one stored during it.
   */
  prime(rows: PendingControl[] | undefined) {
    this.primed = rows && this.spendReports.take(rows);
  }

  read = async (): Promise<ControlRequest[]> => {
    const primed = this.primed;
    this.primed = undefined;
    const rows = primed ?? this.spendReports.take(await this.store.readPendingControls(this.loopId));
    const requests: ControlRequest[] = [];
    for (const row of rows) {
      this.actorIds.set(row.actor, row.actorId);
      const request = engineControlRequest(row);
      if (request) requests.push(request);
      else if (!this.unreadable.some((u) => u.id === row.id)) this.unreadable.push(row);
    }
    return requests;
  };

  /** Rejections for stored requests of an unknown kind or payload, with their audit events. */
  takeUnreadable(at: number) {
    const rows = this.unreadable.splice(0);
    const note = "not a control this release understands";
    return {
      acks: rows.map((r): ControlAck => ({ requestId: r.id, outcome: "rejected", note, at })),
      events: rows.map((r) => ({
        loopId: this.loopId,
        type: "control_rejected",
        actor: r.actor,
        actorId: r.actorId,
        reason: note,
        payload: { requestId: r.id, command: r.kind },
      })),
    };
  }
}
