// What sign-in needs at server start: the trusted peer-address stamp, and the
// admin from RALPH_ADMIN_EMAIL / RALPH_ADMIN_PASSWORD when configured.
import { randomUUID } from "node:crypto";
import { getDatabase } from "../db/database";
import { pruneHits } from "../db/rate-limits.repo";
import { pruneSessions } from "../db/sessions.repo";
import { countUsers } from "../db/users.repo";
import { getEnv } from "../env";
import { installPeerStamp } from "./peer-address";
import { ensureEnvAdmin } from "./setup.service";

export async function startAuth(): Promise<string> {
  installPeerStamp();
  const env = getEnv();
  const db = getDatabase();
  // Rate-limit hits older than a day are past every window; ended sessions are kept a month for the record.
  await pruneHits(db.prisma, new Date(Date.now() - 86_400_000));
  await pruneSessions(db.prisma, new Date(Date.now() - 30 * 86_400_000));
  if (env.RALPH_ADMIN_EMAIL && env.RALPH_ADMIN_PASSWORD) {
    const result = await ensureEnvAdmin(db, env.RALPH_ADMIN_EMAIL, env.RALPH_ADMIN_PASSWORD, Date.now(), randomUUID);
    return result.created
      ? `admin ${env.RALPH_ADMIN_EMAIL} created`
      : result.changed
        ? `admin ${env.RALPH_ADMIN_EMAIL} updated`
        : `admin ${env.RALPH_ADMIN_EMAIL} ready`;
  }
  if ((await countUsers(db.prisma)) === 0)
    return `no users yet: open http://localhost:${env.PORT}/setup on this machine to create the first admin`;
  return "sign-in ready";
}
