/* loop: the one event loop of a sandmux process (server or `run`). Every
 * fd the host watches (PTYs, clients, the proxy, the observer) is a
 * struct watch with a callback; timers are one-shot. */
#ifndef LOOP_H
#define LOOP_H

#include <stdbool.h>
#include <stdint.h>

struct loop;
struct watch;

/* events: LOOP_IN | LOOP_OUT, and on return also LOOP_ERR (hang-up/error). */
enum { LOOP_IN = 1, LOOP_OUT = 2, LOOP_ERR = 4 };
typedef void (*watch_cb)(struct watch *, int events, void *arg);
typedef void (*timer_cb)(void *arg);

struct loop *loop_new(void);
void loop_free(struct loop *);
/* Returns a handle valid until watch_del(); fd is not closed by the loop. */
struct watch *watch_add(struct loop *, int fd, int events, watch_cb, void *arg);
void watch_set(struct watch *, int events);
int watch_fd(const struct watch *);
void watch_del(struct watch *);
/* A one-shot timer, ms from now; returns an id for timer_cancel(). */
uint64_t timer_add(struct loop *, int ms, timer_cb, void *arg);
void timer_cancel(struct loop *, uint64_t id);
/* Runs one turn: waits up to timeout_ms (-1: until something happens). */
int loop_once(struct loop *, int timeout_ms);
uint64_t loop_now_ms(void);

#endif
