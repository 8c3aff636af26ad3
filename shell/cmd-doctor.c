/* cmd-doctor: `sandmux doctor`: what this kernel offers (probed for real),
 * which layers each built-in profile would get here, and what the policy
 * sources of the current directory say (warnings, conflicts). Each
 * sandboxed profile is also tried for real with `true`. Exit 0 when every
 * profile can start, 1 when one cannot. */
#include <fcntl.h>
#include <limits.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "backends/launch.h"
#include "backends/limits.h"
#include "backends/loop.h"
#include "backends/run.h"
#include "backends/unixsock.h"
#include "policy/paths.h"
#include "policy/policy.h"
#include "shell/cmd.h"
#include "shell/command.h"
#include "shell/home.h"
#include "shell/mux.h"

static const char *const doctor_profiles[] = { "workspace", "read-only", "strict", "devbox", "off" };

static const char *yn(bool b)
{
	return b ? "yes" : "NO";
}

/* What each Landlock ABI adds, as the kernel documentation lists it. */
static void doctor_landlock(const struct features *f)
{
	static const char *const adds[] = {
		NULL,
		"file-system rules",
		"rename/link across directories (REFER)",
		"truncate",
		"TCP bind/connect rules",
		"ioctl on devices",
		"scoping of abstract unix sockets and signals",
		"audit logging",
	};
	if (f->landlock_abi == 0) {
		printf("landlock:        NO (%s)\n", f->landlock_why);
		return;
	}
	printf("landlock:        ABI %d:", f->landlock_abi);
	for (int i = 1; i <= f->landlock_abi && i < (int)(sizeof adds / sizeof adds[0]); i++)
		printf("%s %s", i > 1 ? "," : "", adds[i]);
	printf("\n");
	if (f->landlock_abi < 6)
		printf("                 (no ABI 6: abstract sockets and signals rely on the network and pid namespaces)\n");
}

/* Which channel reports a sandbox's denials here ("denials" in
 * sandmux.json, and whether Landlock's audit records can be read), and
 * what choosing the records costs. */
static void doctor_channel(const char *home)
{
	struct mux_config cfg;
	char path[PATH_MAX] = "~/.sandmux/sandmux.json", err[600], why[160];
	if (home != NULL)
		sm_path(home, SM_PATH_CONFIG, path, sizeof path);
	if (home != NULL && mux_config_load(&cfg, path, err, sizeof err) < 0)
		printf("denials:         %s (the default: the observer)\n", err);
	else if (home == NULL)
		mux_config_defaults(&cfg);
	bool readable = run_audit_available(why, sizeof why);
	if (cfg.denials_audit && readable) {
		printf("denials:         Landlock's audit records (\"denials\": \"audit\" in %s): writes to existing\n"
		       "                 files and removals are not notified (creations, exec and sockets still are, one\n"
		       "                 round trip to the observer each); a probe sandbox at each start and end adds\n"
		       "                 3-5 ms; without auditd each record is also in the kernel log (rate-limited).\n"
		       "                 The cost: outside the writable paths a read-only mount refuses writes to\n"
		       "                 existing files and removals first (EROFS), which leaves no record: those are\n"
		       "                 refused without a denial (no prompt, no count)\n",
		       path);
		return;
	}
	printf("denials:         reported by the seccomp observer (one notified call per created and per removed\n"
	       "                 file, ~10-20 us each; in capture mode, per created file)\n");
	if (cfg.denials_audit)
		printf("                 (\"denials\": \"audit\" is set in %s, but Landlock's audit records cannot\n"
		       "                 be used here: %s)\n",
		       path, why);
	else if (readable)
		printf("                 Landlock's audit records can be read here: \"denials\": \"audit\" in %s\n"
		       "                 uses them: faster file-heavy work, but writes to existing files and removals\n"
		       "                 outside the writable paths are then refused without a denial (a read-only\n"
		       "                 mount answers first and leaves no record)\n",
		       path);
	else
		printf("                 Landlock's audit records are not used (\"denials\": \"audit\" chooses them where\n"
		       "                 they can be read): %s\n",
		       why);
}

static void doctor_kernel(const struct features *f, const char *home)
{
	struct utsname u;
	const struct scmp_version *v = seccomp_version();
	if (uname(&u) == 0)
		printf("kernel:          %s %s\n", u.release, u.machine);
	doctor_landlock(f);
	printf("seccomp:         %s (libseccomp %u.%u.%u, API level %u); user notification: %s\n", yn(f->seccomp),
	       v->major, v->minor, v->micro, seccomp_api_get(), yn(f->seccomp_notify));
	const char *unknown[16];
	size_t nunknown = seccomp_unknown(unknown, 16);
	for (size_t i = 0; i < nunknown; i++)
		printf("                 not filtered: %s (no number for it in this libseccomp)\n", unknown[i]);
	char unix_msg[256];
	int unix_rc = unixsock_probe(unix_msg, sizeof unix_msg);
	printf("unix sockets:    %s%s\n", unix_rc == 0 ? "" : "WEAKER: ", unix_msg);
	printf("capture mode:    %s\n", f->overlay ? "yes (overlayfs in user namespaces)"
						   : "NO: overlayfs cannot be mounted in a user namespace here; "
						     "\"outsideWrites\": \"capture\" panes refuse to start");
	doctor_channel(home);
	printf("namespaces:      user %s, mount %s, pid %s, net %s%s\n", yn(f->userns), yn(f->mountns), yn(f->pidns),
	       yn(f->netns),
	       f->userns
		       ? ""
		       : " (unprivileged user namespaces disabled: sysctl kernel.unprivileged_userns_clone or apparmor_restrict_unprivileged_userns)");
}

/* Without user namespaces: what the weaker sandbox (backends/weak.c) puts
 * in place of each namespace, and what is weaker for it. */
static void doctor_weak(const struct features *f)
{
	if (f->userns)
		return;
	printf("\nweaker sandbox: no user namespaces here, so panes run without namespaces, and only where the\n"
	       "  policy says \"allowWeakerSandbox\": true (otherwise they refuse to start); in their place:\n"
	       "  network: Landlock TCP rules + seccomp socket filter instead of a network namespace\n"
	       "           (TCP connect only to the proxy's port, and the observer allows only 127.0.0.1 there;\n"
	       "           no TCP bind, no listen(); sockets: AF_UNIX stream/seqpacket, NETLINK_ROUTE, TCP;\n"
	       "           MSG_FASTOPEN refused; the proxy serves only clients with the pane's credentials)\n"
	       "  /proc:   the host's (no pid namespace): host processes and their command lines are visible\n"
	       "  /tmp:    the host's, readable; TMPDIR is the session temp dir on the host (writable)\n"
	       "  files:   protected paths and deny globs by the observer only (racy), no read-only bind-overs\n"
	       "  processes: init is a subreaper and ends every process left when the command ends\n"
	       "  required: Landlock ABI 6 (have: %d), the denial observer (seccomp user notification: %s)\n",
	       f->landlock_abi, yn(f->seccomp_notify));
}

static void doctor_exited(int code, int sig, void *arg)
{
	int *status = arg;
	*status = sig != 0 ? 128 + sig : code;
}

/* A real start of `true` under the profile, with every layer a pane
 * gets (the observer only where it is required: the weaker sandbox), so
 * a layer that probes fine but cannot be applied here (a /proc that
 * cannot be mounted in this container, say) shows up. 0, or -1 with the
 * reason. */
static int doctor_try(const struct policy *p, bool weak, char *err, size_t errlen)
{
	struct run_opts o;
	int status = -1, null = open("/dev/null", O_RDWR | O_CLOEXEC);
	/* Without protected paths: the launcher would make missing protected
	 * directories (.vscode, .sandmux) in the workspace, and a doctor
	 * changes nothing. */
	struct policy q = *p;
	q.protect = (struct rules){ 0 };
	run_opts_init(&o);
	o.policy = &q;
	o.argv = (char *[]){ "true", NULL };
	o.envp = (char *[]){ "PATH=/usr/bin:/bin", NULL };
	for (int i = 0; i < 3; i++)
		o.stdio[i] = null;
	o.observer = weak; /* required there */
	o.on_exit = doctor_exited;
	o.arg = &status;
	struct loop *loop = loop_new();
	struct run *r = loop != NULL ? run_start(loop, &o, err, errlen) : NULL;
	if (loop == NULL)
		snprintf(err, errlen, "event loop: out of memory");
	while (r != NULL && !run_exited(r))
		loop_once(loop, 50);
	run_stop(r, true);
	loop_free(loop);
	if (null >= 0)
		close(null);
	if (r != NULL && status != 0)
		snprintf(err, errlen, "the trial command did not succeed (status %d)", status);
	return r != NULL && status == 0 ? 0 : -1;
}

/* One line per profile: the layers a launch would apply, or why it
 * would refuse. Returns false when it would refuse. */
static bool doctor_profile(const struct features *f, const struct policy *p)
{
	printf("  %-10s ", p->profile);
	if (!p->sandboxed) {
		printf("no sandbox (runs as is)\n");
		return true;
	}
	bool net = p->net.mode != NET_HOST;
	const char *missing = !f->userns             ? NULL
			      : !f->mountns          ? "mount namespaces"
			      : !f->pidns            ? "pid namespaces"
			      : net && !f->netns     ? "network namespaces"
			      : f->landlock_abi == 0 ? "Landlock"
			      : !f->seccomp          ? "seccomp"
						     : NULL;
	const char *weak = f->userns ? NULL : launch_weak_refusal(p, f->landlock_abi, f->seccomp_notify);
	char err[512];
	if (missing != NULL || weak != NULL) {
		printf("REFUSED here: %s%s\n", missing ? "needs " : "", missing ? missing : weak);
		return false;
	}
	if (doctor_try(p, !f->userns, err, sizeof err) < 0) {
		printf("REFUSED here: a trial launch failed: %s\n", err);
		return false;
	}
	if (!f->userns) {
		printf("WEAKER (no user namespaces): landlock ABI %d, seccomp deny list, denial observer; %s\n",
		       f->landlock_abi, launch_weak_summary(p));
		return true;
	}
	printf("landlock ABI %d (%s, writes: %s), seccomp deny list%s, user+mount+pid ns, %s%s\n", f->landlock_abi,
	       p->read_all ? "reads everywhere" : "reads workspace + system",
	       p->write.n ? "listed roots" : "temp dir only", p->allow_ptrace ? " (ptrace allowed)" : "",
	       p->net.mode == NET_HOST    ? "host network"
	       : p->net.mode == NET_PROXY ? "net ns + filtering proxy"
					  : "net ns (loopback only)",
	       f->seccomp_notify ? ", denial observer" : "");
	return true;
}

static bool doctor_policies(const struct features *f, const char *home, const char *ws)
{
	bool ok = true;
	printf("\nprofiles on this machine (workspace %s):\n", ws);
	for (size_t i = 0; i < sizeof doctor_profiles / sizeof doctor_profiles[0]; i++) {
		struct policy_opts o = { .home = home, .workspace = ws, .profile_flag = doctor_profiles[i] };
		struct policy *p = NULL;
		struct perr err = { 0 };
		if (policy_load(&o, &p, &err) < 0)
			printf("  %-10s policy error: %s\n", doctor_profiles[i], err.msg);
		else
			ok &= doctor_profile(f, p);
		perr_free(&err);
		if (p)
			policy_free(p);
	}
	return ok;
}

/* The limits a pane of profile p gets here: sandmux.json's defaults,
 * lowered by the profile's, made for real (a probe cgroup, removed). */
static void doctor_limits(const char *home, struct policy *p)
{
	struct mux_config cfg;
	struct sandbox_limits sl;
	char path[PATH_MAX], err[600], how[512];
	sm_path(home, SM_PATH_CONFIG, path, sizeof path);
	printf("\nresource limits (\"limits\" in %s; a profile's can only lower them):\n", path);
	if (mux_config_load_checked(&cfg, path, cmd_bindable, err, sizeof err) < 0)
		printf("  error: %s (the defaults apply)\n", err);
	printf("  defaults: pids %ld, memory %ldM, tmp %ldM (0: none)\n", cfg.limits.pids, cfg.limits.memory_mib,
	       cfg.limits.tmp_mib);
	if (!p->sandboxed) {
		printf("  profile %s: no sandbox, no limits\n", p->profile);
		return;
	}
	limits_fold(&p->limits, &cfg.limits);
	limits_prepare(&sl, &p->limits, "doctor-probe");
	limits_describe(&sl, how, sizeof how);
	char base[PATH_MAX];
	snprintf(base, sizeof base, "%s", sl.cg_pids ? sl.cg_pids : sl.cg_memory ? sl.cg_memory : "");
	if (strrchr(base, '/') != NULL)
		*strrchr(base, '/') = '\0'; /* the probe's own directory was only a test */
	printf("  a pane of profile %s gets: %s\n", p->profile, how);
	if (base[0])
		printf("  cgroups under %s (one per sandbox)\n", base);
	else
		printf("  no cgroup to write here (cgroup v2 needs a delegated subtree, v1 needs root)\n");
	printf("  the weaker sandbox bounds /tmp per file only (RLIMIT_FSIZE), and its RLIMIT_NPROC counts\n"
	       "  every process of this user\n");
	limits_release(&sl);
}

/* The sources as `sandmux run` here would read them: the resolved profile
 * and every warning (unknown keys, ignored untrusted widening, the same
 * custom profile defined differently per user and per repo). */
static int doctor_sources(const char *home, const char *ws)
{
	struct policy_opts o = { .home = home, .workspace = ws, .profile_env = getenv("SANDMUX_SANDBOX") };
	struct policy *p = NULL;
	struct perr err = { 0 };
	int rc = policy_load(&o, &p, &err);
	if (rc == 0)
		doctor_limits(home, p);
	printf("\npolicy sources here:\n");
	if (rc < 0)
		printf("  error: %s\n", err.msg);
	else
		printf("  profile: %s%s%s\n", p->profile, p->profile_origin.file ? " from " : " (default)",
		       p->profile_origin.file ? p->profile_origin.file : "");
	for (size_t i = 0; i < err.nwarnings; i++)
		printf("  warning: %s\n", err.warnings[i]);
	if (rc == 0 && err.nwarnings == 0)
		printf("  no conflicts, no warnings\n");
	perr_free(&err);
	if (p)
		policy_free(p);
	return rc;
}

int cmd_doctor(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: sandmux doctor\n");
		return 2;
	}
	struct features f;
	char ws[PATH_MAX];
	const char *home = home_env();
	if (getcwd(ws, sizeof ws) == NULL)
		snprintf(ws, sizeof ws, "/");
	features_probe(&f);
	doctor_kernel(&f, home);
	doctor_weak(&f);
	bool ok = doctor_policies(&f, home, ws);
	if (doctor_sources(home, ws) < 0)
		ok = false;
	return ok ? 0 : 1;
}
