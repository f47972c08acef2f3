// The conversation a model server request carries, in one shape for both
// protocols (Anthropic Messages, OpenAI Responses), so a test script reads
// "what the agent has done so far" without caring which CLI sent it.

/** A tool call the model made (or is asked to make). */
export interface ToolCall {
  /** The tool's name as the CLI offered it (Claude Code: Read, Edit, Bash...; Codex: shell, apply_patch...). */
  name: string;
  /**
   * An object for a JSON-argument tool (Anthropic tool_use, OpenAI function_call); a string for a
   * freeform OpenAI custom tool (Codex's apply_patch takes the raw patch text).
   */
  input: unknown;
  /** Set by the server when omitted. */
  id?: string;
}

export interface ToolResult {
  id: string;
  /** The name of the call it answers ("" when the call is not in the request). */
  name: string;
  output: string;
  isError: boolean;
}

export interface Message {
  role: "user" | "assistant";
  text: string;
  toolCalls: ToolCall[];
  toolResults: ToolResult[];
}

export interface Conversation {
  api: "anthropic" | "openai";
  /** The request path, e.g. /v1/messages or /v1/responses. */
  path: string;
  model: string;
  stream: boolean;
  /** System prompt / instructions text. */
  system: string;
  /** Names of the tools offered with this request (empty for a side call such as a title). */
  tools: string[];
  messages: Message[];
  /** Every tool result so far, in order. */
  toolResults: ToolResult[];
  /** Text of the user messages (the task and whatever the CLI adds), joined. */
  userText: string;
  /** How many assistant turns the conversation holds already (0 on the first call). */
  turn: number;
  /** The parsed request body, for anything else. */
  body: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string => {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(text).join("");
  if (isObj(v)) {
    if (typeof v.text === "string") return v.text;
    if (typeof v.output === "string") return v.output;
    if (v.content !== undefined) return text(v.content);
  }
  return "";
};

function finish(
  api: Conversation["api"],
  path: string,
  body: Json,
  system: string,
  tools: string[],
  messages: Message[],
) {
  const byId = new Map<string, string>();
  for (const m of messages) for (const c of m.toolCalls) if (c.id) byId.set(c.id, c.name);
  const toolResults = messages.flatMap((m) => m.toolResults.map((r) => ({ ...r, name: byId.get(r.id) ?? r.name })));
  const conversation: Conversation = {
    api,
    path,
    model: typeof body.model === "string" ? body.model : "",
    stream: body.stream === true,
    system,
    tools,
    messages,
    toolResults,
    userText: messages
      .filter((m) => m.role === "user")
      .map((m) => m.text)
      .join("\n"),
    turn: messages.filter((m) => m.role === "assistant").length,
    body,
  };
  return conversation;
}

export function anthropicConversation(path: string, body: Json): Conversation {
  const system = text(body.system);
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((t) =>
    isObj(t) && typeof t.name === "string" ? [t.name] : [],
  );
  const messages: Message[] = (Array.isArray(body.messages) ? body.messages : []).filter(isObj).map((m) => {
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as unknown[]);
    const msg: Message = {
      role: m.role === "assistant" ? "assistant" : "user",
      text: "",
      toolCalls: [],
      toolResults: [],
    };
    const texts: string[] = [];
    for (const b of Array.isArray(blocks) ? blocks.filter(isObj) : []) {
      if (b.type === "text") texts.push(text(b));
      if (b.type === "tool_use") msg.toolCalls.push({ id: String(b.id), name: String(b.name), input: b.input });
      if (b.type === "tool_result")
        msg.toolResults.push({
          id: String(b.tool_use_id),
          name: "",
          output: text(b.content),
          isError: b.is_error === true,
        });
    }
    msg.text = texts.join("\n");
    return msg;
  });
  return finish("anthropic", path, body, system, tools, messages);
}

export function openaiConversation(path: string, body: Json): Conversation {
  const system = text(body.instructions);
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((t) =>
    isObj(t) && typeof t.name === "string" ? [t.name] : isObj(t) && typeof t.type === "string" ? [t.type] : [],
  );
  const messages: Message[] = [];
  const current = (role: Message["role"]) => {
    const last = messages[messages.length - 1];
    if (last && last.role === role) return last;
    const m: Message = { role, text: "", toolCalls: [], toolResults: [] };
    messages.push(m);
    return m;
  };
  const items = typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : body.input;
  for (const item of Array.isArray(items) ? items.filter(isObj) : []) {
    const type = item.type ?? "message";
    if (type === "message") {
      // Codex sends developer/system context as messages too; they read as user text here.
      const m = current(item.role === "assistant" ? "assistant" : "user");
      m.text = [m.text, text(item.content)].filter(Boolean).join("\n");
    } else if (type === "function_call") {
      let input: unknown = item.arguments;
      try {
        input = JSON.parse(String(item.arguments));
      } catch {
        // keep the raw string
      }
      current("assistant").toolCalls.push({ id: String(item.call_id), name: String(item.name), input });
    } else if (type === "custom_tool_call" || type === "local_shell_call") {
      current("assistant").toolCalls.push({
        id: String(item.call_id),
        name: String(item.name ?? type),
        input: item.input,
      });
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      const output = text(item.output);
      current("user").toolResults.push({ id: String(item.call_id), name: "", output, isError: false });
    }
  }
  return finish("openai", path, body, system, tools, messages);
}
