// One beat, on the wall clock's half seconds, for the updates nobody needs
// sooner: the clock texts (on whole seconds only), a live loop's output and
// its routine iteration ends. Each change the page draws costs a whole frame
// (style, layout, paint, layerize, commit: 5–10 ms here) however small it is;
// done on the same beat they share one frame instead of taking one each (a
// running loop's page drew about 45 frames every 10 s, most of them for a
// line or a clock). Half a second keeps a printed line on screen within a
// second of the agent printing it.
type Job = () => void;

export const BEAT_MS = 500;

const once: Job[] = [];
const everySecond = new Set<Job>();
let timer: ReturnType<typeof setTimeout> | null = null;
let beating = false;

/** How long until the next beat (never 0: a job scheduled on the beat waits for the next one). */
export const untilBeat = (now: number) => BEAT_MS - (now % BEAT_MS);

function arm() {
  if (timer || beating || (once.length === 0 && everySecond.size === 0)) return;
  timer = setTimeout(beat, untilBeat(Date.now()));
}

function beat() {
  timer = null;
  beating = true;
  try {
    // The timer may fire late on a busy machine: the beat it was meant for is the nearest one.
    if ((Math.round(Date.now() / BEAT_MS) * BEAT_MS) % 1000 === 0) everySecond.forEach((job) => job());
    // Jobs queued by jobs (a deferred event that queues a cache write) run on this same beat.
    for (let job = once.shift(); job; job = once.shift()) job();
  } finally {
    beating = false;
    arm();
  }
}

/** True while the beat's jobs run (a cache write made then can be drawn in the beat's own frame). */
export const inBeat = () => beating;

/** Runs `job` once, on the next beat. */
export function atNextBeat(job: Job) {
  once.push(job);
  arm();
}

/** Runs `job` on every whole second's beat until the returned function is called. */
export function onEverySecond(job: Job): () => void {
  everySecond.add(job);
  arm();
  return () => {
    everySecond.delete(job);
    if (everySecond.size === 0 && once.length === 0 && timer) {
      clearTimeout(timer);
      timer = null;
    }
  };
}
