/* pane-io: a pane's PTY: its program's output read into the screen (at
 * most READ_MAX bytes per loop turn, so a pane that floods cannot starve
 * the keyboard or the other panes; drawn on the next tick, not per read)
 * and what is typed queued to the program. Below pane.c: the denial sink
 * reads a pane's pending output through it. */
#include "shell/mux.h"

#include <errno.h>
#include <unistd.h>

#include "backends/loop.h"
#include "pty/pty.h"
#include "pty/vt.h"

#define READ_MAX    65536
#define READ_SIDE   4096
#define READ_HIDDEN 4096
#define READ_SHORT  256  /* a read this short emptied the PTY: no second read to learn so */
#define READ_REST   1    /* ms a flooding pane not typed into waits between reads */
#define TYPING_MS   1000 /* ... for this long after a key was typed */

void pane_close_fd(struct pane *p)
{
	if (p->read_timer != 0)
		timer_cancel(p->srv->loop, p->read_timer);
	p->read_timer = 0;
	watch_del(p->fdw);
	p->fdw = NULL;
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	buf_free(&p->wq);
}

static void pane_flush(struct pane *p)
{
	while (p->wq.len > 0 && p->fd >= 0) {
		ssize_t n = write(p->fd, buf_data(&p->wq), p->wq.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf_drop(&p->wq, (size_t)n);
	}
	if (p->fdw != NULL)
		watch_set(p->fdw, (p->read_timer != 0 ? 0 : LOOP_IN) | (p->wq.len > 0 ? LOOP_OUT : 0));
}

static void pane_rested(void *arg)
{
	struct pane *p = arg;
	p->read_timer = 0;
	pane_flush(p);
}

/* While a person types, a pane that filled its share of a turn and is not
 * the one typed into rests a moment: its program blocks on the full PTY
 * instead of competing for the CPU with the echo the person waits for.
 * Its output is still all parsed, a little later; with nobody typing,
 * floods go at full speed. */
static void pane_rest(struct pane *p)
{
	p->read_timer = timer_add(p->srv->loop, READ_REST, pane_rested, p);
	if (p->read_timer != 0)
		pane_flush(p);
}

void pane_write(struct pane *p, const char *data, size_t len)
{
	if (p->fd < 0 || p->state != PANE_RUNNING)
		return;
	if (p->wq.len < (1u << 20)) /* a program that never reads loses input beyond 1 MiB */
		buf_add(&p->wq, data, len);
	pane_flush(p);
}

static void pane_read(struct pane *p)
{
	char buf[16384];
	size_t total = 0;
	/* a PTY hands out a few KiB per read: take up to READ_MAX a turn from
	 * the pane being typed into, less from the others, so that parsing a
	 * neighbour's flood never holds up long a loop turn the keyboard's
	 * echo waits for */
	bool visible = p->win == p->srv->cur;
	size_t max = visible && p == p->win->active ? READ_MAX : visible ? READ_SIDE : READ_HIDDEN;
	while (total < max) {
		size_t want = max - total < sizeof buf ? max - total : sizeof buf;
		ssize_t n = pty_read(p->fd, buf, want);
		if (n == 0)
			break;
		if (n < 0) { /* every writer of the PTY is gone */
			pane_close_fd(p);
			break;
		}
		vt_write(p->vt, buf, (size_t)n);
		total += (size_t)n;
		if (n < READ_SHORT)
			break; /* an echo, a prompt: the loop comes back when there is more */
	}
	/* only what can be seen makes a flood that holds drawing back: a
	 * hidden window pouring out output must not slow another's echo */
	if (p->fd >= 0 && total >= max && max < READ_MAX && loop_now_ms() - p->srv->last_input < TYPING_MS)
		pane_rest(p);
	server_output(p->srv, p->win == p->srv->cur ? total : 0);
	if (p->fd < 0 || total == 0) {
		server_redraw(p->srv, false);
		return;
	}
	alerts_output(p);
	if (vt_take_bell(p->vt))
		alerts_bell(p);
	char reply[256];
	size_t r;
	while ((r = vt_take_reply(p->vt, reply, sizeof reply)) > 0)
		pane_write(p, reply, r);
	if (p->win == p->srv->cur && p == p->win->active && total < 1024)
		server_redraw_now(p->srv); /* an echo: not held back by a neighbour's flood */
	else
		server_redraw(p->srv, false);
}

static void on_pane_out(struct watch *w, int events, void *arg)
{
	(void)w;
	struct pane *p = arg;
	if (events & LOOP_OUT)
		pane_flush(p);
	if (p->fd >= 0 && (events & (LOOP_IN | LOOP_ERR)))
		pane_read(p);
}

void pane_read_pending(struct pane *p)
{
	if (p->fd >= 0)
		pane_read(p);
}

void pane_io_start(struct pane *p)
{
	p->fdw = watch_add(p->srv->loop, p->fd, LOOP_IN, on_pane_out, p);
}
