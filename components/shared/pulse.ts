// One beat, on the wall clock's whole seconds, for the updates nobody needs
// sooner: the clock texts, a live loop's output and its routine iteration
// ends. Each change the page draws costs a whole frame (style, layout, paint,
// layerize, commit: 5–10 ms here) however small it is; done on the same beat
// they share one frame a second instead of taking one each (a running loop's
// page drew about 45 frames every 10 s, most of them for a line or a clock).
type Job = () => void;

const once: Job[] = [];
const every = new Set<Job>();
let timer: ReturnType<typeof setTimeout> | null = null;
let beating = false;

/** How long until the next whole second (never 0: a job scheduled on the beat waits for the next one). */
export const untilBeat = (now: number) => 1000 - (now % 1000);

function arm() {
  if (timer || beating || (once.length === 0 && every.size === 0)) return;
  timer = setTimeout(beat, untilBeat(Date.now()));
}

function beat() {
  timer = null;
  beating = true;
  try {
    every.forEach((job) => job());
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

/** Runs `job` on every beat until the returned function is called. */
export function onEveryBeat(job: Job): () => void {
  every.add(job);
  arm();
  return () => {
    every.delete(job);
    if (every.size === 0 && once.length === 0 && timer) {
      clearTimeout(timer);
      timer = null;
    }
  };
}
