// The wall clock and the main queue, as app code under the Core Location facade sees them.
//
// On Linux this target defines `clock_gettime`, `gettimeofday`, `time`, `dispatch_async`,
// `dispatch_after`, `dispatch_time`, `CFRunLoopTimerCreate` and `CFRunLoopAddTimer`. An executable that links it exports them, so the
// shared libraries it loads (Foundation, Dispatch) bind to them instead of the system's: each
// forwards to the real function unless a replay asked otherwise. With the environment variable
// `TRACESIM_NO_WALL_CLOCK_HOOKS=1` (read once, before `main`) every one forwards and
// `cwallclock_is_interposing` answers 0. Elsewhere every function here is inert and it answers 0.
#ifndef CWALLCLOCK_H
#define CWALLCLOCK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the executable's own definitions are the ones Foundation and Dispatch call.
int cwallclock_is_interposing(void);

/// From now until `cwallclock_end` on this thread, reads of the real-time clock
/// (`CLOCK_REALTIME`, `gettimeofday`, `time`) answer `virtual_nanoseconds` since 1970.
void cwallclock_begin(int64_t virtual_nanoseconds);

/// Ends `cwallclock_begin` on this thread; returns how many real-time reads it answered
/// (`clock_gettime(CLOCK_REALTIME)`, the call behind `Date()` and `Date.now`; `gettimeofday`;
/// `time`).
int64_t cwallclock_end(void);

/// Whether this thread's real-time clock is virtual now.
int cwallclock_is_virtual(void);

/// Forgets one counted read on this thread, if there was one: Foundation's own read when a
/// `Timer` is made with `Timer(timeInterval:…)`.
void cwallclock_forgive_read(void);

/// The reads counted so far on this thread, and putting that count back: around Foundation's
/// own reads (a `Timer`'s `fireDate` reads the clock to convert it).
int64_t cwallclock_counted_reads(void);
void cwallclock_restore_counted_reads(int64_t reads);

/// Called with a copied block sent to the main queue (`block`, to run with
/// `cwallclock_run_block` and free with `cwallclock_release_block`) and its delay in
/// nanoseconds (-1: never). Returns nonzero when it took the block; otherwise the block goes to
/// the main queue as asked, and the caller's copy is released here.
typedef int (*cwallclock_main_queue_handler)(void *block, int64_t delay_nanoseconds);

/// Called with the `info` of a Foundation `Timer`'s run-loop timer about to be added to a run
/// loop (other run-loop timers are never offered). Returns nonzero when it took the timer: it is then not added.
typedef int (*cwallclock_timer_handler)(void *timer_info);

/// Installs the handlers (once per process; later calls replace them).
void cwallclock_install(cwallclock_main_queue_handler main_queue, cwallclock_timer_handler timer);

/// Between these two calls on one thread, make one Foundation `Timer`: its run-loop timer's
/// fire function is how Foundation timers are recognised afterwards. The end answers nonzero
/// when it was learned (timers are offered to the handler only then).
void cwallclock_begin_timer_probe(void);
int cwallclock_end_timer_probe(void);

/// Runs a block a handler took.
void cwallclock_run_block(void *block);

/// Releases a block a handler took.
void cwallclock_release_block(void *block);

#ifdef __cplusplus
}
#endif

#endif
