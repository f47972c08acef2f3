import { handleMcpHttp } from "@/server/mcp/mcp-http";
import { getAppRuntime } from "@/server/jobs/app-runtime";

export const dynamic = "force-dynamic";

// MCP's streamable HTTP transport; the bearer-token check lives in the shared handler.
const handler = (req: Request) => handleMcpHttp(req, getAppRuntime().services);

export { handler as GET, handler as POST, handler as DELETE };
