// See include/CWallClock.h. Linux only: on Apple platforms dyld binds libraries to the
// system's functions whatever the executable defines, so nothing here would be reached.
#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CWallClock.h"

#if defined(__linux__)

#include <dlfcn.h>
#include <stddef.h>
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

// The real functions, found once (atomically: any thread may be first, and all find the same).
static void *lookup(void **slot, void *handle, const char *name) {
    void *found = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (found == NULL) {
        found = dlsym(handle, name);
        __atomic_store_n(slot, found, __ATOMIC_RELEASE);
    }
    return found;
}

static void *real_clock_gettime, *real_gettimeofday, *real_time, *real_dispatch_async, *real_dispatch_after,
    *real_dispatch_time, *real_CFRunLoopAddTimer, *timer_get_context, *main_queue, *block_copy, *block_release;
static void *main_queue_handler, *timer_handler;

#define REAL(name) lookup(&real_##name, RTLD_NEXT, #name)
#define FOUND(slot, name) lookup(&slot, RTLD_DEFAULT, name)

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

int gettimeofday(struct timeval *restrict now, void *restrict zone) {
    int (*real)(struct timeval *restrict, void *restrict) = REAL(gettimeofday);
    int result = real != NULL ? real(now, zone) : (int)syscall(SYS_gettimeofday, now, zone);
    if (virtual_active && result == 0) {
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
    return dlsym(RTLD_DEFAULT, "clock_gettime") == (void *)&clock_gettime
        && dlsym(RTLD_DEFAULT, "dispatch_async") == (void *)&dispatch_async;
}

static uint64_t real_uptime(void) {
    uint64_t (*real)(uint64_t, int64_t) = REAL(dispatch_time);
    return real != NULL ? real(0, 0) : 0;
}

uint64_t dispatch_time(uint64_t when, int64_t delta) {
    uint64_t (*real)(uint64_t, int64_t) = REAL(dispatch_time);
    if (virtual_active && when == 0) when = frozen_uptime;
    return real(when, delta);
}

void cwallclock_begin(int64_t nanoseconds) {
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
    void (*release)(const void *) = FOUND(block_release, "_Block_release");
    if (release != NULL) release(block);
}

// Offers a block sent to the main queue to the handler; nonzero when it took it.
static int offer_main_queue_work(void *queue, void *block, int64_t delay) {
    cwallclock_main_queue_handler handler = __atomic_load_n(&main_queue_handler, __ATOMIC_ACQUIRE);
    if (handler == NULL || queue != FOUND(main_queue, "_dispatch_main_q")) return 0;
    void *(*copy)(const void *) = FOUND(block_copy, "_Block_copy");
    if (copy == NULL) return 0;
    void *copied = copy(block);
    if (handler(copied, delay)) return 1;
    cwallclock_release_block(copied);
    return 0;
}

void dispatch_async(void *queue, void *block) {
    if (offer_main_queue_work(queue, block, 0)) return;
    void (*real)(void *, void *) = REAL(dispatch_async);
    real(queue, block);
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
    if (handler != NULL && queue == FOUND(main_queue, "_dispatch_main_q")
        && offer_main_queue_work(queue, block, delay_until(when)))
        return;
    void (*real)(uint64_t, void *, void *) = REAL(dispatch_after);
    real(when, queue, block);
}

// `CFRunLoopTimerContext`'s layout (CoreFoundation's CFRunLoop.h).
struct timer_context {
    long version;
    void *info;
    const void *(*retain)(const void *);
    void (*release)(const void *);
    void *copy_description;
};

void CFRunLoopAddTimer(void *run_loop, void *timer, void *mode) {
    cwallclock_timer_handler handler = __atomic_load_n(&timer_handler, __ATOMIC_ACQUIRE);
    void (*get_context)(void *, struct timer_context *) = FOUND(timer_get_context, "CFRunLoopTimerGetContext");
    if (handler != NULL && get_context != NULL && timer != NULL) {
        struct timer_context context = {0};
        get_context(timer, &context);
        if (context.info != NULL && handler(context.info)) return;
    }
    void (*real)(void *, void *, void *) = REAL(CFRunLoopAddTimer);
    real(run_loop, timer, mode);
}

#else

int cwallclock_is_interposing(void) { return 0; }
void cwallclock_begin(int64_t nanoseconds) { (void)nanoseconds; }
int64_t cwallclock_end(void) { return 0; }
int cwallclock_is_virtual(void) { return 0; }
void cwallclock_forgive_read(void) {}
void cwallclock_install(cwallclock_main_queue_handler main_queue_work, cwallclock_timer_handler timer) {
    (void)main_queue_work;
    (void)timer;
}
void cwallclock_run_block(void *block) { (void)block; }
void cwallclock_release_block(void *block) { (void)block; }

#endif
