/* run-denials: events and observer for `sandmux run`; the report and the
 * hint lines at its end. */
#include "shell/run-denials.h"

#include "backends/limits.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "backends/audit.h"
#include "backends/capture.h"
#include "backends/launch.h"
#include "backends/observer.h"
#include "policy/policy.h"

int run_denials_init(struct run_denials *rd, const struct policy *p, const char *home)
{
	memset(rd, 0, sizeof *rd);
	rd->policy = p;
	return events_init(&rd->ev, home);
}

static void run_denials_on(struct denial *d, void *arg)
{
	struct run_denials *rd = arg;
	d->pane = 0;
	events_emit(&rd->ev, d);
}

int run_denials_watch(struct run_denials *rd, struct loop *loop, int notify_fd, int weak_port)
{
	rd->weak = weak_port >= 0;
	rd->obs = observer_new(loop, rd->policy, notify_fd, weak_port, run_denials_on, rd);
	return rd->obs != NULL ? 0 : -1;
}

void run_denials_audit_open(struct run_denials *rd, struct launch *l)
{
	snprintf(rd->audit_why, sizeof rd->audit_why, "no observer");
	l->audit_fd = l->want_notify ? audit_open(rd->audit_why, sizeof rd->audit_why) : -1;
}

void run_denials_audit(struct run_denials *rd, struct loop *loop, struct launch *l)
{
	if (l->audit_fd >= 0 && l->pid > 0 && !l->weak)
		rd->audit = audit_watch_new(loop, l->audit_fd, rd->policy, l->pid, run_denials_on, rd);
	else if (l->audit_fd >= 0)
		close(l->audit_fd);
	if (l->audit_fd >= 0 && l->weak)
		snprintf(rd->audit_why, sizeof rd->audit_why, "the weaker sandbox: its observer sees every call");
	l->audit_fd = -1;
}

/* Which channel reported the denials, and what the audit one counted. */
static void report_channel(cJSON *r, const struct run_denials *rd)
{
	cJSON_AddStringToObject(r, "denials_channel",
				rd->audit != NULL ? "audit"
				: rd->obs != NULL ? "observer"
						  : "none");
	if (rd->audit == NULL) {
		cJSON_AddStringToObject(r, "audit_unused", rd->audit_why);
		return;
	}
	const struct audit_stats *st = audit_watch_stats(rd->audit);
	cJSON *a = cJSON_CreateObject();
	cJSON_AddNumberToObject(a, "records", (double)st->records);
	cJSON_AddNumberToObject(a, "reported", (double)st->reported);
	cJSON_AddNumberToObject(a, "lost", (double)st->lost);
	if (st->kernel >= 0)
		cJSON_AddNumberToObject(a, "kernel_denials", (double)st->kernel);
	cJSON_AddItemToObject(r, "audit", a);
}

/* Every suggestion, merged: {"additionalReadwritePaths": ["/etc", ...], ...}. */
static cJSON *merged_suggestions(const struct denials *l)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; o != NULL && i < l->n; i++) {
		const struct suggestion *s = &l->v[i].suggest;
		if (s->key == NULL)
			continue;
		cJSON *list = cJSON_GetObjectItem(o, s->key);
		if (list == NULL)
			cJSON_AddItemToObject(o, s->key, list = cJSON_CreateArray());
		bool have = false;
		cJSON *e;
		cJSON_ArrayForEach(e, list) have |= strcmp(e->valuestring, s->value) == 0;
		if (!have)
			cJSON_AddItemToArray(list, cJSON_CreateString(s->value));
	}
	return o;
}

/* "captured": [{"path": ..., "op": ...}], from the layer's upper dir. */
static void report_captured(cJSON *r, const struct run_denials *rd, const struct capture_list *cl)
{
	cJSON *list = cJSON_CreateArray();
	for (size_t i = 0; i < cl->n; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "path", cl->v[i].path);
		cJSON_AddStringToObject(e, "op", cl->v[i].op);
		cJSON_AddItemToArray(list, e);
	}
	cJSON_AddItemToObject(r, "captured", list);
	cJSON_AddStringToObject(r, "capture_layer", cl->n > 0 ? rd->capture_dir : "");
}

static cJSON *report_json(const struct run_denials *rd, char *const *argv, int status, const struct capture_list *cl)
{
	cJSON *r = cJSON_CreateObject(), *cmd = cJSON_CreateArray(), *list = cJSON_CreateArray();
	for (size_t i = 0; argv[i] != NULL; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
	cJSON_AddItemToObject(r, "command", cmd);
	cJSON_AddNumberToObject(r, "status", status);
	cJSON_AddStringToObject(r, "profile", rd->policy->profile ? rd->policy->profile : "");
	cJSON_AddStringToObject(r, "workspace", rd->policy->workspace ? rd->policy->workspace : "");
	cJSON_AddBoolToObject(r, "weaker_sandbox", rd->weak);
	if (rd->limits != NULL) {
		char how[512];
		cJSON *lim = cJSON_CreateObject();
		cJSON_AddNumberToObject(lim, "pids", (double)rd->limits->want.pids);
		cJSON_AddNumberToObject(lim, "memory_mib", (double)rd->limits->want.memory_mib);
		cJSON_AddNumberToObject(lim, "tmp_mib", (double)rd->limits->want.tmp_mib);
		limits_describe(rd->limits, how, sizeof how);
		cJSON_AddStringToObject(lim, "enforced", how);
		cJSON_AddItemToObject(r, "limits", lim);
	}
	for (size_t i = 0; i < rd->ev.list.n; i++) {
		char *s = denial_to_json(&rd->ev.list.v[i], true);
		cJSON *d = s ? cJSON_Parse(s) : NULL;
		free(s);
		if (d != NULL)
			cJSON_AddItemToArray(list, d);
	}
	cJSON_AddItemToObject(r, "denials", list);
	cJSON_AddItemToObject(r, "suggest", merged_suggestions(&rd->ev.list));
	if (rd->capture_dir != NULL)
		report_captured(r, rd, cl);
	if (rd->obs != NULL) {
		const struct observer_stats *st = observer_stats(rd->obs);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "notified", (double)st->seen);
		cJSON_AddNumberToObject(o, "denied", (double)st->denied);
		cJSON_AddNumberToObject(o, "unreadable", (double)st->unreadable);
		cJSON_AddNumberToObject(o, "observer_cpu_us", (double)st->cpu_us);
		if (st->seen > 0)
			cJSON_AddNumberToObject(o, "cpu_us_per_call", (double)st->cpu_us / (double)st->seen);
		cJSON_AddBoolToObject(o, "sync_wake", st->sync_wake);
		/* The host's CPU time: the observer process's and this one's. */
		struct rusage ru;
		if (getrusage(RUSAGE_SELF, &ru) == 0)
			cJSON_AddNumberToObject(o, "host_cpu_us",
						(double)st->cpu_us +
							(double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
							(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec));
		cJSON_AddItemToObject(r, "observer", o);
	}
	report_channel(r, rd);
	return r;
}

FILE *run_denials_report_open(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stderr : fopen(path, "we");
	if (f == NULL)
		fprintf(stderr, "sandmux run: --report %s: %s\n", path, strerror(errno));
	return f;
}

static int write_report(FILE *f, const char *text)
{
	fprintf(f, "%s\n", text);
	int rc = f == stderr ? fflush(f) : fclose(f);
	if (rc != 0)
		fprintf(stderr, "sandmux run: --report: %s\n", strerror(errno));
	return rc != 0 ? -1 : 0;
}

static void print_hint(const struct denial *d)
{
	char times[32] = "", how[4200];
	if (d->count > 1)
		snprintf(times, sizeof times, " %u times", d->count);
	if (suggest_format(&d->suggest, how, sizeof how) == 0)
		snprintf(how, sizeof how, "sandmux offers no broadening for this");
	fprintf(stderr, "sandmux: denied %s %s%s (%s) \u2014 %s%s\n", d->op, d->target ? d->target : "", times,
		d->rule ? d->rule : "", d->suggest.key ? "allow with: " : "", how);
}

int run_denials_finish(struct run_denials *rd, char *const *argv, int status, FILE *report)
{
	/* Every denial was sent before its call went on, so the command's
	 * end finds them all here. The full counters come once the sandbox's
	 * init is gone too: waited for only when they are printed. */
	observer_drain(rd->obs);
	if (rd->obs != NULL && (report != NULL || observer_stats(rd->obs)->unreadable > 0))
		observer_finish(rd->obs, 2000);
	if (rd->obs != NULL && observer_stats(rd->obs)->unreadable > 0)
		fprintf(stderr,
			"sandmux: the observer could not read %llu paths (ptrace restricted: "
			"/proc/sys/kernel/yama/ptrace_scope); Landlock still decided them\n",
			(unsigned long long)observer_stats(rd->obs)->unreadable);
	audit_watch_finish(rd->audit, 2000); /* the records still queued in the kernel */
	if (rd->ev.err[0] != '\0')
		fprintf(stderr, "sandmux: %s\n", rd->ev.err);
	struct capture_list cl = { 0 };
	if (rd->capture_dir != NULL)
		capture_layer_settle(rd->capture_dir, &cl);
	int rc = 0;
	if (report == NULL) {
		for (size_t i = 0; i < rd->ev.list.n; i++)
			print_hint(&rd->ev.list.v[i]);
		if (cl.n > 0)
			fprintf(stderr,
				"sandmux: captured %zu change%s outside the writable paths in %s (sandmux captured list)\n",
				cl.n, cl.n == 1 ? "" : "s", rd->capture_dir);
	} else {
		cJSON *r = report_json(rd, argv, status, &cl);
		char *text = r ? cJSON_Print(r) : NULL;
		cJSON_Delete(r);
		rc = text ? write_report(report, text) : -1;
		free(text);
	}
	capture_list_free(&cl);
	return rc;
}

void run_denials_free(struct run_denials *rd)
{
	observer_free(rd->obs);
	rd->obs = NULL;
	audit_watch_free(rd->audit);
	rd->audit = NULL;
	events_free(&rd->ev);
}
