// The id inputs every router takes, so an id is bounded the same way everywhere.
import { z } from "zod";

/** A row id (a loop, a race, a user, a landing). */
export const idInput = z.string().min(1).max(100);
/** An id or token that may be longer (an alert channel, a share token). */
export const longIdInput = z.string().min(1).max(200);
