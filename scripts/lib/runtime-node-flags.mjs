// Node flags for the processes that run loops (the app server and the worker).
//
// A runtime's live heap is small (about 50-60 MB with 100 live loops, 80 MB
// with 1,000), but it allocates fast, and on a machine with plenty of memory
// V8 lets the old generation grow to up to 4x the live size before collecting
// it: the same 100 loops peaked anywhere between 250 and 430 MB of RSS from
// one run to the next, most of it garbage. A stated ceiling makes V8 pick a
// smaller growth factor (about 1.6x at 1 GB), which keeps the peak near the
// live size at the cost of somewhat more frequent major collections.
// `npm run worker` (package.json) passes the same value.
export const RUNTIME_HEAP_MB = 1024;

/** The flags to put before the script on a runtime process's command line. */
export const RUNTIME_NODE_FLAGS = [`--max-old-space-size=${RUNTIME_HEAP_MB}`];
