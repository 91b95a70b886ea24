// See include/CWallClock.h. Linux only: on Apple platforms dyld binds libraries to the
// system's functions whatever the executable defines, so nothing here would be reached.
#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CWallClock.h"

#if defined(__linux__)

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

// What a replay set on this thread. Thread-local, so runs on other threads (`--jobs`) and the
// app's Swift tasks read the real clock.
static _Thread_local int virtual_active;
static _Thread_local int64_t virtual_nanoseconds;
static _Thread_local int64_t counted_reads;
// `dispatch_time(DISPATCH_TIME_NOW, …)` during a callback: the uptime when it began, so the
// delay of `asyncAfter(deadline: .now() + s)` is exactly `s`.
static _Thread_local uint64_t frozen_uptime;

// The real functions and the symbols used, found once before `main` (`dlsym` is not
// async-signal-safe, and a hook may first run inside a signal handler or a sanitizer).
static void *real_clock_gettime, *real_gettimeofday, *real_time, *real_dispatch_async, *real_dispatch_after,
    *real_dispatch_time, *real_CFRunLoopAddTimer, *real_CFRunLoopTimerCreate, *timer_get_context, *main_queue,
    *block_copy, *block_release;
static void *main_queue_handler, *timer_handler;
// `TRACESIM_NO_WALL_CLOCK_HOOKS=1`: every function here forwards to the system's (for a
// sanitizer or a debugger that intercepts the same functions).
static int hooks_off;

#define REAL(name) (real_##name)

__attribute__((constructor)) static void resolve_real_functions(void) {
    real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
    real_gettimeofday = dlsym(RTLD_NEXT, "gettimeofday");
    real_time = dlsym(RTLD_NEXT, "time");
    real_dispatch_async = dlsym(RTLD_NEXT, "dispatch_async");
    real_dispatch_after = dlsym(RTLD_NEXT, "dispatch_after");
    real_dispatch_time = dlsym(RTLD_NEXT, "dispatch_time");
    real_CFRunLoopAddTimer = dlsym(RTLD_NEXT, "CFRunLoopAddTimer");
    real_CFRunLoopTimerCreate = dlsym(RTLD_NEXT, "CFRunLoopTimerCreate");
    timer_get_context = dlsym(RTLD_DEFAULT, "CFRunLoopTimerGetContext");
    main_queue = dlsym(RTLD_DEFAULT, "_dispatch_main_q");
    block_copy = dlsym(RTLD_DEFAULT, "_Block_copy");
    block_release = dlsym(RTLD_DEFAULT, "_Block_release");
    const char *off = getenv("TRACESIM_NO_WALL_CLOCK_HOOKS");
    hooks_off = off != NULL && strcmp(off, "1") == 0;
}

static int forward_clock_gettime(clockid_t clock, struct timespec *now) {
    int (*real)(clockid_t, struct timespec *) = REAL(clock_gettime);
    if (real != NULL) return real(clock, now);
    return (int)syscall(SYS_clock_gettime, clock, now);
}

static void set_virtual(struct timespec *now) {
    now->tv_sec = (time_t)(virtual_nanoseconds / 1000000000);
    now->tv_nsec = (long)(virtual_nanoseconds % 1000000000);
    if (now->tv_nsec < 0) {
        now->tv_sec -= 1;
        now->tv_nsec += 1000000000;
    }
}

int clock_gettime(clockid_t clock, struct timespec *now) {
    if (virtual_active && clock == CLOCK_REALTIME) {
        counted_reads += 1;
        set_virtual(now);
        return 0;
    }
    return forward_clock_gettime(clock, now);
}

// Whether `pointer` is NULL. glibc declares gettimeofday's first parameter nonnull, so a
// direct comparison warns; a caller may still pass NULL, which must not be written through.
static int is_null(const void *pointer) { return pointer == NULL; }

int gettimeofday(struct timeval *restrict now, void *restrict zone) {
    int (*real)(struct timeval *restrict, void *restrict) = (int (*)(struct timeval *restrict, void *restrict))real_gettimeofday;
    int result = real != NULL ? real(now, zone) : (int)syscall(SYS_gettimeofday, now, zone);
    if (virtual_active && result == 0 && !is_null(now)) {
        counted_reads += 1;
        struct timespec instant;
        set_virtual(&instant);
        now->tv_sec = instant.tv_sec;
        now->tv_usec = instant.tv_nsec / 1000;
    }
    return result;
}

time_t time(time_t *now) {
    time_t seconds;
    if (virtual_active) {
        counted_reads += 1;
        struct timespec instant;
        set_virtual(&instant);
        seconds = instant.tv_sec;
    } else {
        time_t (*real)(time_t *) = REAL(time);
        if (real != NULL) return real(now);
        struct timespec instant;
        forward_clock_gettime(CLOCK_REALTIME, &instant);
        seconds = instant.tv_sec;
    }
    if (now != NULL) *now = seconds;
    return seconds;
}

void dispatch_async(void *queue, void *block);

int cwallclock_is_interposing(void) {
    return !hooks_off && dlsym(RTLD_DEFAULT, "clock_gettime") == (void *)&clock_gettime
        && dlsym(RTLD_DEFAULT, "dispatch_async") == (void *)&dispatch_async;
}

static uint64_t real_uptime(void) {
    uint64_t (*real)(uint64_t, int64_t) = REAL(dispatch_time);
    if (real != NULL) return real(0, 0);
    struct timespec instant;
    forward_clock_gettime(CLOCK_MONOTONIC, &instant);
    return (uint64_t)instant.tv_sec * 1000000000ull + (uint64_t)instant.tv_nsec;
}

uint64_t dispatch_time(uint64_t when, int64_t delta) {
    uint64_t (*real)(uint64_t, int64_t) = REAL(dispatch_time);
    if (virtual_active && when == 0) when = frozen_uptime;
    if (real != NULL) return real(when, delta);
    // No libdispatch loaded: its uptime encoding is the monotonic clock in nanoseconds.
    if (when == 0) when = real_uptime();
    return delta < 0 && (uint64_t)(-delta) > when ? 0 : when + (uint64_t)delta;
}

void cwallclock_begin(int64_t nanoseconds) {
    if (hooks_off) return;
    frozen_uptime = real_uptime();
    virtual_nanoseconds = nanoseconds;
    counted_reads = 0;
    virtual_active = 1;
}

int64_t cwallclock_end(void) {
    virtual_active = 0;
    int64_t reads = counted_reads;
    counted_reads = 0;
    return reads;
}

int cwallclock_is_virtual(void) { return virtual_active; }

int64_t cwallclock_counted_reads(void) { return counted_reads; }

void cwallclock_restore_counted_reads(int64_t reads) { counted_reads = reads; }

void cwallclock_forgive_read(void) {
    if (counted_reads > 0) counted_reads -= 1;
}

void cwallclock_install(cwallclock_main_queue_handler main_queue_work, cwallclock_timer_handler timer) {
    __atomic_store_n(&main_queue_handler, (void *)main_queue_work, __ATOMIC_RELEASE);
    __atomic_store_n(&timer_handler, (void *)timer, __ATOMIC_RELEASE);
}

// The Blocks ABI: every block starts with this layout (clang's "Block Implementation
// Specification"), so a block is run without compiling this file with -fblocks.
struct block_layout {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(void *);
};

void cwallclock_run_block(void *block) { ((struct block_layout *)block)->invoke(block); }

void cwallclock_release_block(void *block) {
    void (*release)(const void *) = (void (*)(const void *))block_release;
    if (release != NULL) release(block);
}

// Offers a block sent to the main queue to the handler; nonzero when it took it.
static int offer_main_queue_work(void *queue, void *block, int64_t delay) {
    cwallclock_main_queue_handler handler = __atomic_load_n(&main_queue_handler, __ATOMIC_ACQUIRE);
    if (hooks_off || handler == NULL || queue != main_queue) return 0;
    void *(*copy)(const void *) = (void *(*)(const void *))block_copy;
    if (copy == NULL) return 0;
    void *copied = copy(block);
    if (handler(copied, delay)) return 1;
    cwallclock_release_block(copied);
    return 0;
}

void dispatch_async(void *queue, void *block) {
    if (offer_main_queue_work(queue, block, 0)) return;
    void (*real)(void *, void *) = REAL(dispatch_async);
    if (real != NULL) real(queue, block);
}

// libdispatch's encoding of a `dispatch_time_t`: all ones is "forever"; bit 63 clear is the
// uptime clock (`DispatchTime`); bits 63 and 62 set is the wall clock (`DispatchWallTime`),
// stored negated; bit 63 alone is the monotonic clock.
static int64_t delay_until(uint64_t when) {
    const uint64_t forever = ~0ull, wall_bits = 3ull << 62, wall_now = ~0ull - 1;
    if (when == forever) return -1;
    if (when == 0 || when == wall_now) return 0;
    uint64_t now;
    uint64_t deadline;
    if ((when & wall_bits) == wall_bits) {
        struct timespec instant;
        // `DispatchWallTime.now()` read the virtual clock when a replay set it.
        if (virtual_active) {
            set_virtual(&instant);
        } else {
            forward_clock_gettime(CLOCK_REALTIME, &instant);
        }
        now = (uint64_t)instant.tv_sec * 1000000000ull + (uint64_t)instant.tv_nsec;
        deadline = (uint64_t)(-(int64_t)when);
    } else if (when >> 63) {
        struct timespec instant;
        forward_clock_gettime(CLOCK_BOOTTIME, &instant);
        now = (uint64_t)instant.tv_sec * 1000000000ull + (uint64_t)instant.tv_nsec;
        deadline = when & ~(1ull << 63);
    } else {
        now = virtual_active ? frozen_uptime : real_uptime();
        deadline = when;
    }
    if (deadline <= now) return 0;
    uint64_t delay = deadline - now;
    return delay > (uint64_t)INT64_MAX ? -1 : (int64_t)delay;
}

void dispatch_after(uint64_t when, void *queue, void *block) {
    cwallclock_main_queue_handler handler = __atomic_load_n(&main_queue_handler, __ATOMIC_ACQUIRE);
    if (handler != NULL && queue == main_queue && offer_main_queue_work(queue, block, delay_until(when)))
        return;
    void (*real)(uint64_t, void *, void *) = REAL(dispatch_after);
    if (real != NULL) real(when, queue, block);
}

// `CFRunLoopTimerContext`'s layout (CoreFoundation's CFRunLoop.h).
struct timer_context {
    long version;
    void *info;
    const void *(*retain)(const void *);
    void (*release)(const void *);
    void *copy_description;
};

// A Foundation `Timer` is recognised by the function its run-loop timer fires (Foundation's
// own, learned from a probe `Timer` at install): only those are marked, by an identity `retain`
// in their context (Foundation leaves it unset, so this changes nothing), and only marked timers
// are offered to the handler. Anyone else's run-loop timer passes through untouched.
static _Thread_local int probing_timer;
static void *foundation_timer_callout;

static const void *foundation_timer_mark(const void *info) { return info; }

typedef void *(*timer_create_function)(void *, double, double, unsigned long, long, void *, struct timer_context *);

void *CFRunLoopTimerCreate(
    void *allocator, double fire_date, double interval, unsigned long flags, long order, void *callout,
    struct timer_context *context) {
    timer_create_function real = (timer_create_function)real_CFRunLoopTimerCreate;
    if (real == NULL) return NULL;
    if (probing_timer) __atomic_store_n(&foundation_timer_callout, callout, __ATOMIC_RELEASE);
    void *known = __atomic_load_n(&foundation_timer_callout, __ATOMIC_ACQUIRE);
    // Core Foundation reads the wall clock to place the fire date: its read, not the app's.
    int64_t reads = counted_reads;
    void *timer;
    if (hooks_off || context == NULL || context->version != 0 || context->retain != NULL || known == NULL
        || callout != known) {
        timer = real(allocator, fire_date, interval, flags, order, callout, context);
    } else {
        struct timer_context marked = *context;
        marked.retain = foundation_timer_mark;
        timer = real(allocator, fire_date, interval, flags, order, callout, &marked);
    }
    counted_reads = reads;
    return timer;
}

void cwallclock_begin_timer_probe(void) { probing_timer = 1; }

int cwallclock_end_timer_probe(void) {
    probing_timer = 0;
    return __atomic_load_n(&foundation_timer_callout, __ATOMIC_ACQUIRE) != NULL;
}

void CFRunLoopAddTimer(void *run_loop, void *timer, void *mode) {
    cwallclock_timer_handler handler = __atomic_load_n(&timer_handler, __ATOMIC_ACQUIRE);
    void (*get_context)(void *, struct timer_context *) = (void (*)(void *, struct timer_context *))timer_get_context;
    if (!hooks_off && handler != NULL && get_context != NULL && timer != NULL) {
        struct timer_context context = {0};
        get_context(timer, &context);
        if (context.retain == foundation_timer_mark && context.info != NULL && handler(context.info)) return;
    }
    void (*real)(void *, void *, void *) = REAL(CFRunLoopAddTimer);
    if (real != NULL) real(run_loop, timer, mode);
}

#else

int cwallclock_is_interposing(void) { return 0; }
void cwallclock_begin(int64_t nanoseconds) { (void)nanoseconds; }
int64_t cwallclock_end(void) { return 0; }
int cwallclock_is_virtual(void) { return 0; }
int64_t cwallclock_counted_reads(void) { return counted_reads; }

void cwallclock_restore_counted_reads(int64_t reads) { counted_reads = reads; }

void cwallclock_forgive_read(void) {}
int64_t cwallclock_counted_reads(void) { return 0; }
void cwallclock_restore_counted_reads(int64_t reads) { (void)reads; }
void cwallclock_install(cwallclock_main_queue_handler main_queue_work, cwallclock_timer_handler timer) {
    (void)main_queue_work;
    (void)timer;
}
void cwallclock_run_block(void *block) { (void)block; }
void cwallclock_begin_timer_probe(void) {}
int cwallclock_end_timer_probe(void) { return 0; }
void cwallclock_release_block(void *block) { (void)block; }

#endif
