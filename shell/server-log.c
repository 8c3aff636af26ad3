/* server-log: ~/.sandmux/state/server.log, where every server says why it
 * started, refused or ended, one line each ("TIME SESSION: what"). A
 * server that dies of a signal it cannot handle in the loop (a crash, an
 * assertion, SIGQUIT, ...) still writes one line from the signal handler,
 * so the client that loses it can tell the person why. The file lies
 * under the person's ~/.sandmux, which no sandbox can write; it is still
 * opened without following a symlink on any component and must be a
 * regular file of ours. */
#include "shell/mux.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#endif

/* The crash handler's only state: the log's fd and the session's name,
 * written once before the handlers are installed. A signal handler has
 * no other way to reach them. */
static struct {
	int fd;
	char name[64];
} crash = { -1, "" };

void server_log(struct server *s, const char *fmt, ...)
{
	if (s->log == NULL)
		return;
	char when[32];
	time_t now = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(s->log, "%s %s: ", when, s->name);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(s->log, fmt, ap);
	va_end(ap);
	fputc('\n', s->log);
	fflush(s->log);
}

/* Async-signal-safe: digits of n into p, returns the length. */
static size_t crash_num(char *p, unsigned n)
{
	char d[12];
	size_t k = 0, len = 0;
	do
		d[k++] = (char)('0' + n % 10);
	while ((n /= 10) != 0);
	while (k > 0)
		p[len++] = d[--k];
	return len;
}

static size_t crash_put(char *p, size_t at, size_t cap, const char *s)
{
	while (*s && at < cap)
		p[at++] = *s++;
	return at;
}

static size_t crash_put2(char *p, size_t at, unsigned v, char after)
{
	p[at++] = (char)('0' + v / 10 % 10);
	p[at++] = (char)('0' + v % 10);
	p[at++] = after;
	return at;
}

/* "YYYY-MM-DDTHH:MM:SSZ " from the clock, as server_log writes it, with
 * no gmtime (not async-signal-safe): days to a civil date. */
static size_t crash_time(char *p)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	long long t = ts.tv_sec, z = t / 86400 + 719468;
	unsigned sec = (unsigned)(t % 86400);
	long long era = z / 146097, doe = z - era * 146097;
	long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	unsigned d = (unsigned)(doy - (153 * mp + 2) / 5 + 1), m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	unsigned y = (unsigned)(yoe + era * 400 + (m <= 2));
	size_t n = crash_num(p, y);
	p[n++] = '-';
	n = crash_put2(p, n, m, '-');
	n = crash_put2(p, n, d, 'T');
	n = crash_put2(p, n, sec / 3600, ':');
	n = crash_put2(p, n, sec / 60 % 60, ':');
	n = crash_put2(p, n, sec % 60, 'Z');
	p[n++] = ' ';
	return n;
}

/* Every descriptor let go before the default action: a core dump can
 * take seconds (a core_pattern pipe to a dump collector ignores
 * RLIMIT_CORE), and meanwhile a listening socket still held would take a
 * new client's connection and never answer it, and attached clients and
 * panes would wait for an end already decided. */
static void crash_let_go(void)
{
	syscall(SYS_close_range, 3, ~0U, 0);
}

/* One line, then the default action (the core dump or the end): only
 * write(), close_range() and raise(), which are async-signal-safe. */
static void crash_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	char line[256], num[12];
	size_t n = crash_time(line);
	n = crash_put(line, n, sizeof line, crash.name);
	n = crash_put(line, n, sizeof line, ": died of signal ");
	num[crash_num(num, (unsigned)sig)] = '\0';
	n = crash_put(line, n, sizeof line, num);
	n = crash_put(line, n, sizeof line, " (");
	n = crash_put(line, n, sizeof line, sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
	if (sig == SIGSEGV || sig == SIGBUS) {
		n = crash_put(line, n, sizeof line, ", fault address 0x");
		unsigned long a = (unsigned long)si->si_addr;
		char hex[17];
		int k = 16;
		hex[16] = '\0';
		do
			hex[--k] = "0123456789abcdef"[a & 15];
		while ((a >>= 4) != 0 && k > 0);
		n = crash_put(line, n, sizeof line, hex + k);
	}
	n = crash_put(line, n, sizeof line, ")\n");
	if (crash.fd >= 0 && write(crash.fd, line, n) < 0) {
		/* nothing else to tell */
	}
	crash_let_go();
	signal(sig, SIG_DFL);
	raise(sig);
}

#ifdef __SANITIZE_ADDRESS__
static void crash_sanitizer(void)
{
	char line[160];
	size_t n = crash_time(line);
	n = crash_put(line, n, sizeof line, crash.name);
	n = crash_put(line, n, sizeof line,
		      ": died: the sanitizer found an error (its report: ASAN_OPTIONS log_path)\n");
	if (crash.fd >= 0 && write(crash.fd, line, n) < 0) {
		/* nothing else to tell */
	}
	crash_let_go();
}
#endif

/* Signals whose default action ends the server without the loop seeing
 * them (SIGTERM, SIGINT and SIGHUP come through the signalfd instead). */
void server_log_crashes(struct server *s)
{
#ifdef __SANITIZE_ADDRESS__
	/* The sanitizer reports faults itself (and more usefully): it keeps
	 * them, and says in the log that it ended the server. */
	const int sigs[] = { SIGTRAP,   SIGSYS,  SIGQUIT, SIGUSR1, SIGUSR2,   SIGALRM,
			     SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSTKFLT, SIGPWR };
	__sanitizer_set_death_callback(crash_sanitizer);
#else
	const int sigs[] = { SIGSEGV, SIGBUS,  SIGFPE,    SIGILL,  SIGABRT, SIGTRAP, SIGSYS,    SIGQUIT, SIGUSR1,
			     SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSTKFLT, SIGPWR };
#endif
	crash.fd = s->log != NULL ? fileno(s->log) : -1;
	snprintf(crash.name, sizeof crash.name, "%s", s->name);
	struct sigaction sa = { .sa_sigaction = crash_handler, .sa_flags = SA_SIGINFO | SA_RESETHAND };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}
