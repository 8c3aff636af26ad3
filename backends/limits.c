/* limits: see limits.h. The cgroups live under one directory per sandmux
 * process, "sandmux-PID", made in the nearest cgroup it may write:
 *
 * - cgroup v2 (/sys/fs/cgroup is cgroup2): an ancestor of our own cgroup
 *   (the root when we are in it) whose subtree_control already hands
 *   down pids and memory and whose cgroup.procs we may write, so that a
 *   process can move from our cgroup into one below it: root's, or a
 *   delegated subtree such as systemd's user@UID.service. Our own cgroup
 *   is never used: it holds processes, and the kernel gives controllers
 *   only to cgroups without any.
 * - cgroup v1 (the pids and memory hierarchies mounted apart): our own
 *   cgroup in each; writable in practice by root only.
 *
 * Each sandbox gets a cgroup of its own below, which its first process
 * joins before anything else, so every process it ever makes is counted.
 * Nothing here is global: the cgroup paths travel in struct
 * sandbox_limits. */
#include "backends/limits.h"
#include "backends/events.h"
#include "backends/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#define CG_ROOT       "/sys/fs/cgroup"
#define CGROUP2_MAGIC 0x63677270
#define CGROUP1_MAGIC 0x27e0eb
#define CG_WANT       "+pids +memory"

static int read_text(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* O_CREAT changes nothing on a cgroup file system (its files are there
 * or cannot be made) and lets the unit test use a plain directory tree. */
static int write_text(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Whether the list (words separated by sep) has word. */
static bool has_word_sep(const char *list, const char *word, char sep)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == sep) && (p[n] == sep || p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

static bool has_word(const char *list, const char *word)
{
	return has_word_sep(list, word, ' ');
}

static bool fs_is(const char *path, long magic)
{
	struct statfs sf;
	return statfs(path, &sf) == 0 && (long)sf.f_type == magic;
}

/* Our cgroup in the hierarchy named key ("" for v2's "0::", "pids",
 * "memory"), from /proc/self/cgroup. */
static int own_cgroup(const char *key, char *out, size_t cap)
{
	char text[4096];
	if (read_text("/proc/self/cgroup", text, sizeof text) < 0)
		return -1;
	for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
		char *c1 = strchr(line, ':'), *c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
		if (c2 == NULL)
			continue;
		*c2 = '\0';
		/* v2: "0::/path"; v1: "4:memory:/path" (names comma-separated) */
		bool v2 = line[0] == '0' && c1 == line + 1 && c2 == c1 + 1;
		*c1 = '\0';
		if (key[0] == '\0' ? v2 : has_word_sep(c1 + 1, key, ',')) {
			snprintf(out, cap, "%s", c2 + 1);
			return 0;
		}
	}
	return -1;
}

/* rmdir, again for a moment while the last processes of a sandbox that
 * just ended are still being released (EBUSY). */
static void remove_cgroup(const char *path)
{
	for (int i = 0; i < 20 && rmdir(path) < 0 && errno == EBUSY; i++)
		usleep(5000);
}

/* Whether a cgroup directory was made or changed in the last minute.
 * kill(PID, 0) cannot tell a dead sandmux from a live one in another pid
 * namespace (or under another's reused number): a fresh cgroup may be
 * one that is about to be joined, so only old empty ones are swept. */
static bool cg_recent(const char *path)
{
	struct stat st;
	return stat(path, &st) < 0 || time(NULL) - st.st_mtime < 60;
}

/* What a sandmux that is gone left in dir (it crashed, or a cgroup was
 * still busy at its end): sandmux-PID of a dead PID and the empty
 * cgroups in it older than a minute. */
static void sweep_stale(const char *dir)
{
	DIR *d = opendir(dir);
	for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
		int pid;
		char sub[PATH_MAX + 300];
		if (sscanf(e->d_name, "sandmux-%d", &pid) != 1 || pid <= 0 || pid == getpid() || kill(pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
		DIR *in = opendir(sub);
		for (struct dirent *c; in != NULL && (c = readdir(in)) != NULL;) {
			char cg[PATH_MAX + 600];
			if (c->d_type == DT_DIR && c->d_name[0] != '.') {
				snprintf(cg, sizeof cg, "%s/%s", sub, c->d_name);
				if (!cg_recent(cg))
					rmdir(cg);
			}
		}
		if (in != NULL)
			closedir(in);
		if (!cg_recent(sub))
			rmdir(sub);
	}
	if (d != NULL)
		closedir(d);
}

/* Makes DIR/sandmux-PID (kept for the process's life) and hands its
 * controllers down; its path in base. */
static int make_base(const char *dir, bool v2, char *base, size_t cap)
{
	if (snprintf(base, cap, "%s/sandmux-%d", dir, (int)getpid()) >= (int)cap)
		return -1;
	if (mkdir(base, 0755) < 0 && errno != EEXIST)
		return -1;
	sweep_stale(dir);
	if (v2 && write_text(base, "cgroup.subtree_control", CG_WANT) < 0) {
		rmdir(base);
		return -1;
	}
	return 0;
}

/* Whether dir hands pids and memory down and lets us move processes
 * into a cgroup below it (its cgroup.procs, for a move from a sibling). */
static bool v2_usable(const char *dir)
{
	char ctl[256], path[PATH_MAX + 160];
	snprintf(path, sizeof path, "%s/cgroup.subtree_control", dir);
	if (read_text(path, ctl, sizeof ctl) < 0 || !has_word(ctl, "pids") || !has_word(ctl, "memory"))
		return false;
	snprintf(path, sizeof path, "%s/cgroup.procs", dir);
	return access(dir, W_OK) == 0 && access(path, W_OK) == 0;
}

int limits_cgroup2_base(const char *root, const char *own_path, char *base, size_t cap)
{
	char own[PATH_MAX], dir[PATH_MAX + 64];
	snprintf(own, sizeof own, "%s", own_path);
	/* our own cgroup holds processes: start at its parent (or the root) */
	for (char *slash = strrchr(own, '/');; slash = strrchr(own, '/')) {
		if (slash != NULL)
			*slash = '\0';
		snprintf(dir, sizeof dir, "%s%s", root, own);
		if (own[0] == '\0' && geteuid() == 0)
			write_text(dir, "cgroup.subtree_control", CG_WANT); /* the root may hand them down */
		if (v2_usable(dir))
			return make_base(dir, true, base, cap);
		if (own[0] == '\0')
			return -1;
	}
}

static int base_v2(char *base, size_t cap)
{
	char own[PATH_MAX];
	if (!fs_is(CG_ROOT, CGROUP2_MAGIC) || own_cgroup("", own, sizeof own) < 0)
		return -1;
	return limits_cgroup2_base(CG_ROOT, own, base, cap);
}

/* cgroup v1: our own cgroup of the hierarchy `name`. */
static int base_v1(const char *name, char *base, size_t cap)
{
	char mnt[64], own[PATH_MAX], dir[PATH_MAX + 64];
	snprintf(mnt, sizeof mnt, CG_ROOT "/%s", name);
	if (!fs_is(mnt, CGROUP1_MAGIC) || own_cgroup(name, own, sizeof own) < 0)
		return -1;
	snprintf(dir, sizeof dir, "%s%s", mnt, strcmp(own, "/") == 0 ? "" : own);
	return access(dir, W_OK) == 0 ? make_base(dir, false, base, cap) : -1;
}

/* base/tag with the limit written into file; its path in *out (kept
 * as long as the sandbox: a string of its length, not a PATH_MAX). */
static bool make_cgroup(const char *base, const char *tag, const char *file, long long value, char **out)
{
	char num[32], path[PATH_MAX];
	snprintf(num, sizeof num, "%lld", value);
	if (snprintf(path, sizeof path, "%s/%s", base, tag) < (int)sizeof path &&
	    (mkdir(path, 0755) == 0 || errno == EEXIST) && write_text(path, file, num) == 0 &&
	    (*out = strdup(path)) != NULL)
		return true;
	return false;
}

/* cgroup v2: one cgroup holds both limits. */
static void prepare_v2(struct sandbox_limits *sl, const char *base, const char *tag)
{
	long long mem = (long long)sl->want.memory_mib << 20;
	if (sl->want.pids > 0 && make_cgroup(base, tag, "pids.max", sl->want.pids, &sl->cg_pids))
		sl->pids = LIMIT_CGROUP2;
	if (sl->want.memory_mib > 0 && make_cgroup(base, tag, "memory.max", mem, &sl->cg_memory)) {
		write_text(sl->cg_memory, "memory.swap.max", "0"); /* where swap is accounted */
		sl->memory = LIMIT_CGROUP2;
	}
}

/* cgroup v1: a cgroup in each hierarchy. */
static void prepare_v1(struct sandbox_limits *sl, const char *tag)
{
	char base[PATH_MAX];
	long long mem = (long long)sl->want.memory_mib << 20;
	if (sl->want.pids > 0 && base_v1("pids", base, sizeof base) == 0 &&
	    make_cgroup(base, tag, "pids.max", sl->want.pids, &sl->cg_pids))
		sl->pids = LIMIT_CGROUP1;
	if (sl->want.memory_mib > 0 && base_v1("memory", base, sizeof base) == 0 &&
	    make_cgroup(base, tag, "memory.limit_in_bytes", mem, &sl->cg_memory))
		sl->memory = LIMIT_CGROUP1;
}

void limits_prepare(struct sandbox_limits *sl, const struct limits *want, const char *tag)
{
	memset(sl, 0, sizeof *sl);
	sl->want = *want;
	sl->tmp_fd = -1;
	char base[PATH_MAX];
	if (want->pids > 0 || want->memory_mib > 0) {
		if (base_v2(base, sizeof base) == 0)
			prepare_v2(sl, base, tag);
		else
			prepare_v1(sl, tag);
	}
	/* what no cgroup holds, rlimits do (RLIMIT_NPROC never binds root) */
	if (sl->pids == LIMIT_OFF && want->pids > 0)
		sl->pids = geteuid() == 0 ? LIMIT_NOTHING : LIMIT_RLIMIT;
	if (sl->memory == LIMIT_OFF && want->memory_mib > 0)
		sl->memory = LIMIT_RLIMIT;
	sl->tmp = want->tmp_mib == 0 ? LIMIT_OFF : LIMIT_TMPFS;
}

static void open_tmp(struct sandbox_limits *, pid_t init);

void limits_launched(struct sandbox_limits *sl, bool weak, pid_t init)
{
	if (weak && sl->tmp == LIMIT_TMPFS)
		sl->tmp = LIMIT_FSIZE; /* no mount namespace: a bound per file */
	open_tmp(sl, init);
}

static int set_rlimit(int which, unsigned long long v)
{
	struct rlimit r = { v, v };
	return setrlimit(which, &r);
}

/* The caller is the sandbox's first process, and single-threaded (a
 * fresh clone): moving its one thread moves all of it. On cgroup v1 that
 * is what `tasks` does, and a thread moving itself skips the lock that
 * moving a whole process (cgroup.procs) takes for writing, whose first
 * taker waits an RCU grace period: 5 to 30 ms here, most of the start. v2
 * moves a domain cgroup's members by cgroup.procs only. */
void limits_to_wire(const struct sandbox_limits *sl, struct limits_wire *w)
{
	memset(w, 0, sizeof *w);
	w->want = sl->want;
	w->pids = sl->pids;
	w->memory = sl->memory;
	w->tmp = sl->tmp;
	snprintf(w->cg_pids, sizeof w->cg_pids, "%s", sl->cg_pids ? sl->cg_pids : "");
	snprintf(w->cg_memory, sizeof w->cg_memory, "%s", sl->cg_memory ? sl->cg_memory : "");
}

int limits_join(const struct limits_wire *sl, const char **step)
{
	const char *cgs[] = { sl->cg_pids, sl->cg_memory };
	enum limit_how how[] = { sl->pids, sl->memory };
	for (size_t i = 0; i < 2; i++) {
		if (cgs[i][0] == '\0' || (i == 1 && strcmp(cgs[1], cgs[0]) == 0))
			continue;
		if (write_text(cgs[i], how[i] == LIMIT_CGROUP1 ? "tasks" : "cgroup.procs", "0") < 0) {
			*step = i == 0 ? "join the sandbox's cgroup (pids)" : "join the sandbox's cgroup (memory)";
			return -1;
		}
	}
	return 0;
}

int limits_set_rlimits(const struct limits_wire *sl, bool weak, const char **step)
{
	/* In the sandbox's own user namespace RLIMIT_NPROC counts its own
	 * processes (the kernel keeps the count per namespace and user); in
	 * the weaker sandbox it counts all of the person's. */
	if (sl->pids == LIMIT_RLIMIT && set_rlimit(RLIMIT_NPROC, (unsigned long long)sl->want.pids) < 0) {
		*step = "set RLIMIT_NPROC";
		return -1;
	}
	if (sl->memory == LIMIT_RLIMIT && set_rlimit(RLIMIT_DATA, (unsigned long long)sl->want.memory_mib << 20) < 0) {
		*step = "set RLIMIT_DATA";
		return -1;
	}
	if (weak && sl->want.tmp_mib > 0 && set_rlimit(RLIMIT_FSIZE, (unsigned long long)sl->want.tmp_mib << 20) < 0) {
		*step = "set RLIMIT_FSIZE";
		return -1;
	}
	return 0;
}

void limits_release(struct sandbox_limits *sl)
{
	if (sl->cg_pids && sl->cg_memory && strcmp(sl->cg_pids, sl->cg_memory) == 0) {
		free(sl->cg_memory); /* v2: one cgroup for both */
		sl->cg_memory = NULL;
	}
	char *cgs[] = { sl->cg_pids, sl->cg_memory };
	for (size_t i = 0; i < 2; i++) {
		if (cgs[i] == NULL)
			continue;
		remove_cgroup(cgs[i]);
		char *slash = strrchr(cgs[i], '/');
		if (slash != NULL) { /* the last sandbox of this process takes the base along */
			*slash = '\0';
			rmdir(cgs[i]);
		}
	}
	free(sl->cg_pids);
	free(sl->cg_memory);
	sl->cg_pids = sl->cg_memory = NULL;
	if (sl->tmp_fd >= 0)
		close(sl->tmp_fd);
	sl->tmp_fd = -1;
}

static const char *how_name(enum limit_how h)
{
	switch (h) {
	case LIMIT_CGROUP2:
		return "cgroup v2";
	case LIMIT_CGROUP1:
		return "cgroup v1";
	case LIMIT_RLIMIT:
		return "rlimit";
	case LIMIT_TMPFS:
		return "tmpfs";
	case LIMIT_FSIZE:
		return "RLIMIT_FSIZE, per file";
	case LIMIT_NOTHING:
		return "NOT ENFORCED";
	case LIMIT_OFF:
		break;
	}
	return "off";
}

void limits_describe(const struct sandbox_limits *sl, char *buf, size_t cap)
{
	char p[96], m[96], t[96];
	if (sl->pids == LIMIT_OFF)
		snprintf(p, sizeof p, "pids: none");
	else
		snprintf(p, sizeof p, "pids %ld (%s%s)", sl->want.pids, how_name(sl->pids),
			 sl->pids == LIMIT_NOTHING ? ": no cgroup, and RLIMIT_NPROC does not bind root" : "");
	if (sl->memory == LIMIT_OFF)
		snprintf(m, sizeof m, "memory: none");
	else
		snprintf(m, sizeof m, "memory %ldM (%s)", sl->want.memory_mib,
			 sl->memory == LIMIT_RLIMIT ? "RLIMIT_DATA, per process" : how_name(sl->memory));
	if (sl->tmp == LIMIT_OFF)
		snprintf(t, sizeof t, "/tmp: no bound");
	else
		snprintf(t, sizeof t, "/tmp %ldM (%s)", sl->want.tmp_mib, how_name(sl->tmp));
	snprintf(buf, cap, "%s, %s, %s", p, m, t);
}

void limits_brief(const struct sandbox_limits *sl, char *buf, size_t cap)
{
	char p[32] = "pids -", m[32] = "mem -", t[32] = "tmp -";
	if (sl->pids != LIMIT_OFF)
		snprintf(p, sizeof p, "pids %ld%s", sl->want.pids, sl->pids == LIMIT_NOTHING ? "!" : "");
	if (sl->memory != LIMIT_OFF)
		snprintf(m, sizeof m, "mem %ldM", sl->want.memory_mib);
	if (sl->tmp != LIMIT_OFF)
		snprintf(t, sizeof t, "tmp %ldM", sl->want.tmp_mib);
	snprintf(buf, cap, "%s %s %s", p, m, t);
}

/* "key N" of a flat-keyed file such as pids.events or memory.events. */
static long long read_key(const char *dir, const char *file, const char *key)
{
	char path[PATH_MAX + 64], text[1024];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (read_text(path, text, sizeof text) < 0)
		return -1;
	size_t n = strlen(key);
	for (char *l = text; l != NULL && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, key, n) == 0 && l[n] == ' ')
			return atoll(l + n + 1);
	return -1;
}

/* One denial of op "limit" to emit. */
struct poll_out {
	void (*emit)(struct denial *, void *);
	void *arg;
};

static void hit(const struct poll_out *o, const char *what, const char *layer, const char *rule)
{
	struct denial d = { 0 };
	if (denial_set(&d, "limit", layer, what, rule) == 0)
		o->emit(&d, o->arg);
	denial_clear(&d);
}

static void poll_pids(struct sandbox_limits *sl, pid_t init, const struct poll_out *o)
{
	char rule[160];
	if (sl->pids == LIMIT_CGROUP2 || sl->pids == LIMIT_CGROUP1) {
		long long refused = read_key(sl->cg_pids, "pids.events", "max");
		if (refused <= sl->pids_refused)
			return;
		sl->pids_refused = refused;
		snprintf(rule, sizeof rule, "limits.pids: %ld processes (cgroup pids.max); %lld forks refused",
			 sl->want.pids, refused);
		hit(o, "pids", "cgroup", rule);
		return;
	}
	if (sl->pids != LIMIT_RLIMIT)
		return;
	pid_t first;
	long n = proc_count_tree(init, &first);
	if (n < 0)
		return;
	/* A look once a second sees a fork bomb somewhere below the limit
	 * (its processes die as fast as they fork): 7/8 of it counts. */
	if (sl->pids_full && n < sl->want.pids * 3 / 4)
		sl->pids_full = false; /* it came down: the next time counts again */
	if (sl->pids_full || n < sl->want.pids - sl->want.pids / 8)
		return;
	sl->pids_full = true;
	snprintf(rule, sizeof rule, "limits.pids: %ld processes (RLIMIT_NPROC); %ld running, at or near it",
		 sl->want.pids, n);
	hit(o, "pids", "rlimit", rule);
}

static void poll_memory(struct sandbox_limits *sl, const struct poll_out *o)
{
	char rule[160];
	long long kills = sl->memory == LIMIT_CGROUP2   ? read_key(sl->cg_memory, "memory.events", "oom_kill")
			  : sl->memory == LIMIT_CGROUP1 ? read_key(sl->cg_memory, "memory.oom_control", "oom_kill")
							: -1;
	if (kills <= sl->oom_kills)
		return;
	sl->oom_kills = kills;
	snprintf(rule, sizeof rule, "limits.memory: %ldM (cgroup); %lld processes killed for memory",
		 sl->want.memory_mib, kills);
	hit(o, "memory", "cgroup", rule);
}

/* The sandbox's /tmp, held open from outside: init itself may not be
 * ours to look into (it is no longer dumpable), the command is. */
static void open_tmp(struct sandbox_limits *sl, pid_t init)
{
	char path[64];
	pid_t first = 0;
	if (sl->tmp != LIMIT_TMPFS || sl->tmp_fd >= 0 || init <= 0)
		return;
	snprintf(path, sizeof path, "/proc/%d/root/tmp", (int)init);
	sl->tmp_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (sl->tmp_fd < 0 && proc_count_tree(init, &first) > 1 && first > 0) {
		snprintf(path, sizeof path, "/proc/%d/root/tmp", (int)first);
		sl->tmp_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
}

static void poll_tmp(struct sandbox_limits *sl, pid_t init, const struct poll_out *o)
{
	char rule[160];
	struct statfs sf;
	open_tmp(sl, init);
	if (sl->tmp_fd < 0 || fstatfs(sl->tmp_fd, &sf) < 0 || sf.f_blocks == 0)
		return;
	if (sl->tmp_full && sf.f_bavail > sf.f_blocks / 10)
		sl->tmp_full = false;
	if (sl->tmp_full || sf.f_bavail > 0)
		return;
	sl->tmp_full = true;
	snprintf(rule, sizeof rule, "limits.tmp: %ldM (the tmpfs on /tmp is full)", sl->want.tmp_mib);
	hit(o, "tmp", "tmpfs", rule);
}

void limits_poll(struct sandbox_limits *sl, pid_t init, void (*emit)(struct denial *, void *), void *arg)
{
	const struct poll_out o = { emit, arg };
	poll_pids(sl, init, &o);
	poll_memory(sl, &o);
	poll_tmp(sl, init, &o);
}
