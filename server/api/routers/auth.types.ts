// Output contracts of the auth router.
import { z } from "zod";

export const meOutput = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(["viewer", "operator", "admin"]),
    /** What the role may do; the UI decides from these, never from the role name. */
    permissions: z.object({ operateLoops: z.boolean(), administer: z.boolean() }),
  })
  .nullable();
