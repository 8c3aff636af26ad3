/* vt throughput: the same generated output (text, colours, UTF-8, long
 * wrapping lines) fed in pty-sized reads through (a) libvterm 0.1.4's
 * screen layer and (b) sandmux's vt (libvterm's state layer + our grid).
 * Prints both times and the ratio. A benchmark, not a test: it never
 * fails on timing. Usage: vt_bench [MB] [rows] [cols] */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vterm.h>

#include "pty/vt.h"

static unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245 + 12345;
	return *s >> 16;
}

/* Plain short lines, like cat of source code: line feeds dominate. */
static size_t gen_plain(char *buf, size_t size)
{
	unsigned s = 11;
	size_t n = 0;
	while (n + 128 < size) {
		int w = rnd(&s) % 80;
		for (int i = 0; i < w; i++)
			buf[n++] = i < 4 && w > 40 ? ' ' : 'a' + rnd(&s) % 26;
		buf[n++] = '\r';
		buf[n++] = '\n';
	}
	return n;
}

static size_t gen_mixed(char *buf, size_t size)
{
	static const char *words[] = { "sandbox", "pane",   "terminal", "émulateur", "终端", "grid",
				       "scroll",  "policy", "landlock", "seccomp",   "λ",    "make",
				       "build/",  "ok",     "-",        "42" };
	unsigned s = 7;
	size_t n = 0;
	while (n + 2048 < size) {
		int w = 3 + rnd(&s) % 30;
		if (rnd(&s) % 20 == 0)
			w *= 8; /* a long line that wraps */
		for (int i = 0; i < w; i++) {
			unsigned r = rnd(&s) % 16;
			if (r == 0)
				n += sprintf(buf + n, "\033[%dm", 31 + rnd(&s) % 7);
			else if (r == 1)
				n += sprintf(buf + n, "\033[38;5;%dm", rnd(&s) % 256);
			else if (r == 2)
				n += sprintf(buf + n, "\033[1;38;2;%d;%d;%dm", rnd(&s) % 256, rnd(&s) % 256,
					     rnd(&s) % 256);
			else if (r == 3)
				n += sprintf(buf + n, "\033[0m");
			n += sprintf(buf + n, "%s ", words[rnd(&s) % 16]);
		}
		n += sprintf(buf + n, "\033[0m\r\n");
	}
	return n;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: steadier on a shared machine */
	return t.tv_sec + t.tv_nsec / 1e9;
}

#define CHUNK 4096

/* Feed buf in pty-sized reads to one of the three; returns CPU seconds. */
static double feed(VTerm *vterm, struct vt *vt, const char *buf, size_t len)
{
	double t = now();
	for (size_t off = 0; off < len; off += CHUNK) {
		size_t n = len - off < CHUNK ? len - off : CHUNK;
		if (vt)
			vt_write(vt, buf + off, n);
		else
			vterm_input_write(vterm, buf + off, n);
	}
	return now() - t;
}

/* screen: libvterm's screen layer; otherwise its state layer with no
 * callbacks, the floor of any emulator built on it. */
static double run_libvterm(const char *buf, size_t len, int rows, int cols, bool screen)
{
	VTerm *vt = vterm_new(rows, cols);
	vterm_set_utf8(vt, 1);
	VTermScreen *scr = screen ? vterm_obtain_screen(vt) : NULL;
	if (scr) {
		vterm_screen_enable_altscreen(scr, 1);
		vterm_screen_reset(scr, 1);
	} else {
		vterm_state_reset(vterm_obtain_state(vt), 1);
	}
	double t = feed(vt, NULL, buf, len);
	vterm_free(vt);
	return t;
}

static double run_vt(const char *buf, size_t len, int rows, int cols, size_t *mem)
{
	struct vt *vt = vt_new(rows, cols, 2000);
	double t = feed(NULL, vt, buf, len);
	*mem = vt_memory(vt);
	vt_free(vt);
	return t;
}

/* Heap held by n panes of 80x24, each with `lines` lines of shell-like
 * output in its scrollback (the shape of tmux's 16 x 2,000 figure). */
static double panes_mb(int n, int lines)
{
	size_t before = mallinfo2().uordblks;
	struct vt *vt[16];
	char line[128];
	unsigned s = 5;
	for (int i = 0; i < n; i++) {
		vt[i] = vt_new(24, 80, 2000);
		for (int l = 0; l < lines; l++) {
			int len = snprintf(line, sizeof line, "%s%d: %.*s\033[0m\r\n", rnd(&s) % 8 ? "" : "\033[32m", l,
					   (int)(rnd(&s) % 60),
					   "src/pane.c:42: warning: unused variable 'x' [-Wunused] ok");
			vt_write(vt[i], line, len);
		}
	}
	size_t used = mallinfo2().uordblks - before;
	for (int i = 0; i < n; i++)
		vt_free(vt[i]);
	return used / 1048576.0;
}

int main(int argc, char **argv)
{
	double mb = argc > 1 ? atof(argv[1]) : 5;
	int rows = argc > 2 ? atoi(argv[2]) : 50, cols = argc > 3 ? atoi(argv[3]) : 200;
	size_t size = (size_t)(mb * 1024 * 1024);
	char *buf = malloc(size);
	if (!buf)
		return 1;
	static const struct {
		const char *name;
		size_t (*gen)(char *, size_t);
	} sets[] = { { "mixed text, colours, UTF-8, wrapping", gen_mixed },
		     { "plain short lines (cat of code)", gen_plain } };
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		size_t len = sets[i].gen(buf, size), mem;
		double tv = run_vt(buf, len, rows, cols, &mem);
		double ts = getenv("VT_BENCH_ONLY_VT") ? 1 : run_libvterm(buf, len, rows, cols, true);
		double tf = run_libvterm(buf, len, rows, cols, false);
		printf("vt bench: %s, %.1f MB at %dx%d\n", sets[i].name, len / 1048576.0, cols, rows);
		printf("  libvterm screen layer: %.3f s CPU (%.1f MB/s)\n", ts, len / 1048576.0 / ts);
		printf("  libvterm state alone:  %.3f s CPU (%.1f MB/s), the floor\n", tf, len / 1048576.0 / tf);
		printf("  sandmux vt:            %.3f s CPU (%.1f MB/s)\n", tv, len / 1048576.0 / tv);
		printf("  ratio screen/vt:       %.1fx\n", ts / tv);
		printf("  vt memory with 2000 lines of history: %.2f MB\n", mem / 1048576.0);
	}
	free(buf);
	printf("vt memory (heap), 80x24 panes: 1 idle %.2f MB, 16 idle %.2f MB, 16 with 2000 lines of history %.2f MB\n",
	       panes_mb(1, 0), panes_mb(16, 0), panes_mb(16, 2100));
	return 0;
}
