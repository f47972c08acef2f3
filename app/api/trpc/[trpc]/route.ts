import { handleTrpcHttp } from "@/server/api/http-handler";
import { getAppRuntime } from "@/server/jobs/app-runtime";

export const dynamic = "force-dynamic";

// CSRF/content-type checks and the session-cookie context live in the shared handler.
const handler = (req: Request) => handleTrpcHttp(req, getAppRuntime().services);

export { handler as GET, handler as POST };
