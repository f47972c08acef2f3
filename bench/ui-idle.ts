// The loop page at rest: main-thread time over 10 s of doing nothing, for a
// finished loop and a running one (CDP Performance TaskDuration, plus the
// thread's CPU time). Each figure is the median of `runs` windows, so one
// hiccup of the shared machine does not decide it.
import type { BenchApp } from "./ui-app";
import { idleMainThread } from "../e2e/support/idle-cpu";

export interface IdleSample {
  taskMs: number;
  cpuMs: number;
}

export interface UiIdleFigures {
  finished: IdleSample[];
  running: IdleSample[];
}

export async function measureUiIdle(app: BenchApp, runs = 3, idleMs = 10_000): Promise<UiIdleFigures> {
  const page = await app.context.newPage();
  const idleOn = async (id: string) => {
    await page.goto(`${app.base}/loops/${id}`);
    await page.getByTestId("score-chart").waitFor();
    await page.waitForTimeout(2000);
    const samples: IdleSample[] = [];
    for (let i = 0; i < runs; i++) samples.push(await idleMainThread(page, idleMs));
    return samples;
  };
  try {
    return { finished: await idleOn(app.finishedId), running: await idleOn(app.runningId) };
  } finally {
    await page.close();
  }
}
