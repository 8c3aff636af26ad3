/* loop: epoll with callbacks, and one-shot timers in a small sorted list.
 * A watch deleted while its turn is being dispatched is only marked dead
 * and freed after the turn, so callbacks may delete any watch safely. */
#include "backends/loop.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

struct watch {
	struct loop *loop;
	int fd;
	int events;
	bool dead;
	watch_cb cb;
	void *arg;
	struct watch *next_dead;
};

struct timer {
	uint64_t id, due;
	timer_cb cb;
	void *arg;
	struct timer *next;
};

struct loop {
	int ep;
	struct watch *dead;
	struct timer *timers; /* sorted by due */
	uint64_t next_id;
};

uint64_t loop_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct loop *loop_new(void)
{
	struct loop *l = calloc(1, sizeof *l);
	if (l == NULL)
		return NULL;
	l->ep = epoll_create1(EPOLL_CLOEXEC);
	if (l->ep < 0) {
		free(l);
		return NULL;
	}
	return l;
}

static void loop_reap(struct loop *l)
{
	while (l->dead != NULL) {
		struct watch *w = l->dead;
		l->dead = w->next_dead;
		free(w);
	}
}

void loop_free(struct loop *l)
{
	if (l == NULL)
		return;
	loop_reap(l);
	while (l->timers != NULL) {
		struct timer *t = l->timers;
		l->timers = t->next;
		free(t);
	}
	close(l->ep);
	free(l);
}

static uint32_t to_epoll(int events)
{
	return (events & LOOP_IN ? EPOLLIN : 0) | (events & LOOP_OUT ? EPOLLOUT : 0);
}

struct watch *watch_add(struct loop *l, int fd, int events, watch_cb cb, void *arg)
{
	struct watch *w = calloc(1, sizeof *w);
	if (w == NULL)
		return NULL;
	*w = (struct watch){ .loop = l, .fd = fd, .events = events, .cb = cb, .arg = arg };
	struct epoll_event ev = { .events = to_epoll(events), .data.ptr = w };
	if (epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
		free(w);
		return NULL;
	}
	return w;
}

void watch_set(struct watch *w, int events)
{
	if (w->dead || w->events == events)
		return;
	w->events = events;
	struct epoll_event ev = { .events = to_epoll(events), .data.ptr = w };
	epoll_ctl(w->loop->ep, EPOLL_CTL_MOD, w->fd, &ev);
}

int watch_fd(const struct watch *w)
{
	return w->fd;
}

void watch_del(struct watch *w)
{
	if (w == NULL || w->dead)
		return;
	epoll_ctl(w->loop->ep, EPOLL_CTL_DEL, w->fd, NULL);
	w->dead = true;
	w->next_dead = w->loop->dead;
	w->loop->dead = w;
}

uint64_t timer_add(struct loop *l, int ms, timer_cb cb, void *arg)
{
	struct timer *t = calloc(1, sizeof *t);
	if (t == NULL)
		return 0;
	*t = (struct timer){
		.id = ++l->next_id, .due = loop_now_ms() + (uint64_t)(ms < 0 ? 0 : ms), .cb = cb, .arg = arg
	};
	struct timer **p = &l->timers;
	while (*p != NULL && (*p)->due <= t->due)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
	return t->id;
}

void timer_cancel(struct loop *l, uint64_t id)
{
	for (struct timer **p = &l->timers; *p != NULL; p = &(*p)->next) {
		if ((*p)->id == id) {
			struct timer *t = *p;
			*p = t->next;
			free(t);
			return;
		}
	}
}

/* Fires every due timer; a callback may add or cancel timers. */
static void loop_fire(struct loop *l)
{
	uint64_t now = loop_now_ms();
	while (l->timers != NULL && l->timers->due <= now) {
		struct timer *t = l->timers;
		l->timers = t->next;
		t->cb(t->arg);
		free(t);
	}
}

int loop_once(struct loop *l, int timeout_ms)
{
	if (l->timers != NULL) {
		uint64_t now = loop_now_ms();
		int until = l->timers->due <= now ? 0 : (int)(l->timers->due - now);
		if (timeout_ms < 0 || until < timeout_ms)
			timeout_ms = until;
	}
	struct epoll_event evs[64];
	int n = epoll_wait(l->ep, evs, 64, timeout_ms);
	if (n < 0 && errno != EINTR)
		return -1;
	for (int i = 0; i < n; i++) {
		struct watch *w = evs[i].data.ptr;
		if (w->dead)
			continue;
		int e = (evs[i].events & EPOLLIN ? LOOP_IN : 0) | (evs[i].events & EPOLLOUT ? LOOP_OUT : 0) |
			(evs[i].events & (EPOLLERR | EPOLLHUP) ? LOOP_ERR : 0);
		w->cb(w, e, w->arg);
	}
	loop_fire(l);
	loop_reap(l);
	return 0;
}
