/* run-report: the denials of `sandmux run` and what it says about them
 * at its end (run-cmd.h). */
#include "shell/run-cmd.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "backends/capture.h"

int run_report_init(struct run_report *rr, const struct policy *p, const char *home)
{
	memset(rr, 0, sizeof *rr);
	rr->policy = p;
	return events_init(&rr->ev, home);
}

/* Every suggestion, merged: {"additionalReadwritePaths": ["/etc", ...], ...}. */
static cJSON *merged_suggestions(const struct denials *l)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; o != NULL && i < l->n; i++) {
		const struct suggestion *s = &l->v[i].suggest;
		if (s->kind == SUGGEST_NONE)
			continue;
		cJSON *list = cJSON_GetObjectItem(o, suggest_key(s->kind));
		if (list == NULL)
			cJSON_AddItemToObject(o, suggest_key(s->kind), list = cJSON_CreateArray());
		bool have = false;
		cJSON *e;
		cJSON_ArrayForEach(e, list) have |= strcmp(e->valuestring, s->value) == 0;
		if (!have)
			cJSON_AddItemToArray(list, cJSON_CreateString(s->value));
	}
	return o;
}

/* "captured": [{"path": ..., "op": ...}], from the layer's upper dir. */
static void report_captured(cJSON *r, const struct run_report *rd, const struct capture_list *cl)
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

static cJSON *report_json(const struct run_report *rd, char *const *argv, int status, const struct capture_list *cl)
{
	cJSON *r = cJSON_CreateObject(), *cmd = cJSON_CreateArray(), *list = cJSON_CreateArray();
	for (size_t i = 0; argv[i] != NULL; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
	cJSON_AddItemToObject(r, "command", cmd);
	cJSON_AddNumberToObject(r, "status", status);
	cJSON_AddStringToObject(r, "profile", rd->policy->profile ? rd->policy->profile : "");
	cJSON_AddStringToObject(r, "workspace", rd->policy->workspace ? rd->policy->workspace : "");
	cJSON_AddBoolToObject(r, "weaker_sandbox", rd->weak);
	if (rd->have_limits) {
		char how[512];
		cJSON *lim = cJSON_CreateObject();
		cJSON_AddNumberToObject(lim, "pids", (double)rd->limits.want.pids);
		cJSON_AddNumberToObject(lim, "memory_mib", (double)rd->limits.want.memory_mib);
		cJSON_AddNumberToObject(lim, "tmp_mib", (double)rd->limits.want.tmp_mib);
		limits_describe(&rd->limits, how, sizeof how);
		cJSON_AddStringToObject(lim, "enforced", how);
		cJSON_AddItemToObject(r, "limits", lim);
	}
	for (size_t i = 0; i < rd->ev.list.n; i++)
		cJSON_AddItemToArray(list, denial_json(&rd->ev.list.v[i], true));
	cJSON_AddItemToObject(r, "denials", list);
	cJSON_AddItemToObject(r, "suggest", merged_suggestions(&rd->ev.list));
	if (rd->capture_dir != NULL)
		report_captured(r, rd, cl);
	if (rd->have_stats) {
		const struct observer_stats *st = &rd->stats;
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
	return r;
}

FILE *run_report_open(const char *path)
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
		d->rule ? d->rule : "", d->suggest.kind != SUGGEST_NONE ? "allow with: " : "", how);
}

int run_report_finish(struct run_report *rd, char *const *argv, int status, FILE *report)
{
	if (rd->have_stats && rd->stats.unreadable > 0)
		fprintf(stderr,
			"sandmux: the observer could not read %llu paths (ptrace restricted: "
			"/proc/sys/kernel/yama/ptrace_scope); Landlock still decided them\n",
			(unsigned long long)rd->stats.unreadable);
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

void run_report_free(struct run_report *rd)
{
	events_free(&rd->ev);
}
