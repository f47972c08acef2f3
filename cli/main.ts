// The `ralph` command line (bin: cli/ralph.mjs). Every failure ends here and
// leaves with the code from cli/exit-codes.ts.
import { Command, CommanderError } from "commander";
import { controlCommands } from "./commands/controls";
import { landingCommands } from "./commands/landing";
import { loopCommands } from "./commands/loops";
import { mcpCommand } from "./commands/mcp";
import { raceCommands } from "./commands/races";
import { runCommand } from "./commands/run";
import { sessionCommands } from "./commands/session";
import { describeFailure } from "./errors";
import { EXIT } from "./exit-codes";

export function buildProgram(): Command {
  const program = new Command("ralph")
    .description(
      "Drive Ralph Control from a terminal or CI. Server and token: ralph login, or RALPH_URL and RALPH_TOKEN.",
    )
    .showHelpAfterError()
    .exitOverride();
  sessionCommands(program);
  loopCommands(program);
  runCommand(program);
  controlCommands(program);
  landingCommands(program);
  raceCommands(program);
  mcpCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return EXIT.completed;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, successfully; commander has already printed.
      return error.exitCode === 0 ? EXIT.completed : EXIT.usage;
    }
    const { code, message } = describeFailure(error);
    if (message) process.stderr.write(`ralph: ${message}\n`);
    return code;
  }
}

// Exit at once: an open event stream or keep-alive socket must not hold the process after the answer.
process.exit(await main(process.argv));
