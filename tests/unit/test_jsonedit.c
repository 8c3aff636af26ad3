/* jsonedit: one entry added, every other byte kept. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/safefile.h"
#include "policy/jsonedit.h"
#include "policy/suggest.h"
#include "shell/approve.h"
#include "tests/unit/unit.h"

/* Adds key/value to in and compares with want (NULL: an error is wanted). */
static void edit(struct unit *u, const char *in, const char *key, const char *value, const char *want)
{
	char err[256] = "";
	bool added = false;
	char *got = jsonedit_add(in, key, value, &added, err, sizeof err);
	if (want == NULL) {
		CHECK(u, got == NULL);
		CHECK(u, err[0] != '\0');
	} else {
		if (got == NULL)
			fprintf(stderr, "error: %s\n", err);
		CHECK_STR(u, got, want);
		CHECK_INT(u, added, strcmp(in, want) != 0);
	}
	free(got);
}

static void test_existing_list(struct unit *u)
{
	edit(u, "{\n  \"additionalReadwritePaths\": [\"/a\"]\n}\n", "additionalReadwritePaths", "/etc",
	     "{\n  \"additionalReadwritePaths\": [\"/a\", \"/etc\"]\n}\n");
	edit(u, "{\"additionalReadwritePaths\":[\"/a\",\"/b\"]}", "additionalReadwritePaths", "/etc",
	     "{\"additionalReadwritePaths\":[\"/a\",\"/b\",\"/etc\"]}");
	edit(u, "{\"additionalReadwritePaths\": []}", "additionalReadwritePaths", "/etc",
	     "{\"additionalReadwritePaths\": [\"/etc\"]}");
	edit(u, "{\"additionalReadwritePaths\": [ ]}", "additionalReadwritePaths", "/etc",
	     "{\"additionalReadwritePaths\": [\"/etc\"]}");
	/* one entry a line: the new one indented like the last */
	edit(u,
	     "{\n\t\"type\": \"workspace_readwrite\",\n\t\"additionalReadwritePaths\": [\n\t\t\"/a\",\n\t\t\"/b\"\n\t],\n"
	     "\t\"x-unknown\": {\"k\": [1, 2.5e3, true, null]}\n}\n",
	     "additionalReadwritePaths", "/c",
	     "{\n\t\"type\": \"workspace_readwrite\",\n\t\"additionalReadwritePaths\": [\n\t\t\"/a\",\n\t\t\"/b\",\n\t\t\"/c\"\n"
	     "\t],\n\t\"x-unknown\": {\"k\": [1, 2.5e3, true, null]}\n}\n");
}

static void test_already_there(struct unit *u)
{
	edit(u, "{\"additionalReadwritePaths\": [\"/etc\"]}", "additionalReadwritePaths", "/etc",
	     "{\"additionalReadwritePaths\": [\"/etc\"]}");
	edit(u, "{\"networkPolicy\": {\"allow\": [\"a.com\"]}}", "networkPolicy.allow", "a.com",
	     "{\"networkPolicy\": {\"allow\": [\"a.com\"]}}");
}

static void test_missing_key(struct unit *u)
{
	edit(u, "{\n  \"type\": \"workspace_readwrite\",\n  \"zzz\": 1\n}\n", "additionalReadwritePaths", "/etc",
	     "{\n  \"type\": \"workspace_readwrite\",\n  \"zzz\": 1,\n  \"additionalReadwritePaths\": [\"/etc\"]\n}\n");
	edit(u, "{\"type\":\"workspace_readwrite\"}", "additionalReadwritePaths", "/etc",
	     "{\"type\":\"workspace_readwrite\", \"additionalReadwritePaths\":[\"/etc\"]}");
	edit(u, "{}", "additionalReadwritePaths", "/etc", "{\n  \"additionalReadwritePaths\": [\"/etc\"]\n}");
	edit(u, "", "additionalReadwritePaths", "/etc", "{\n  \"additionalReadwritePaths\": [\"/etc\"]\n}\n");
	edit(u, "  \n", "networkPolicy.allow", "a.com", "{\n  \"networkPolicy\": {\"allow\": [\"a.com\"]}\n}\n");
}

static void test_nested(struct unit *u)
{
	edit(u, "{\n  \"networkPolicy\": {\n    \"default\": \"deny\",\n    \"allow\": [\"a.com\"]\n  }\n}\n",
	     "networkPolicy.allow", "b.com",
	     "{\n  \"networkPolicy\": {\n    \"default\": \"deny\",\n    \"allow\": [\"a.com\", \"b.com\"]\n  }\n}\n");
	edit(u, "{\n  \"networkPolicy\": {\n    \"default\": \"deny\"\n  }\n}\n", "networkPolicy.allow", "b.com",
	     "{\n  \"networkPolicy\": {\n    \"default\": \"deny\",\n    \"allow\": [\"b.com\"]\n  }\n}\n");
	edit(u, "{\"a\": 1, \"networkPolicy\": {}}", "networkPolicy.allow", "b.com",
	     "{\"a\": 1, \"networkPolicy\": {\"allow\": [\"b.com\"]}}");
	edit(u, "{\"a\": 1}", "networkPolicy.allow", "b.com",
	     "{\"a\": 1, \"networkPolicy\": {\"allow\": [\"b.com\"]}}");
	/* a key of the same name deeper down is not the one */
	edit(u, "{\"x\": {\"allow\": []}, \"networkPolicy\": {\"allow\": []}}", "networkPolicy.allow", "c",
	     "{\"x\": {\"allow\": []}, \"networkPolicy\": {\"allow\": [\"c\"]}}");
}

static void test_escaping(struct unit *u)
{
	edit(u, "{}", "additionalReadwritePaths", "/a \"b\"\\c",
	     "{\n  \"additionalReadwritePaths\": [\"/a \\\"b\\\"\\\\c\"]\n}");
	/* strings with escaped quotes and brackets are walked over */
	edit(u, "{\"s\": \"]}\\\"{[\", \"additionalReadwritePaths\": [\"x\"]}", "additionalReadwritePaths", "y",
	     "{\"s\": \"]}\\\"{[\", \"additionalReadwritePaths\": [\"x\", \"y\"]}");
}

static void test_errors(struct unit *u)
{
	edit(u, "[]", "additionalReadwritePaths", "/a", NULL);
	edit(u, "{\"additionalReadwritePaths\": \"/a\"}", "additionalReadwritePaths", "/b", NULL);
	edit(u, "{\"networkPolicy\": []}", "networkPolicy.allow", "b", NULL);
	edit(u, "{\"a\": [1, 2}", "additionalReadwritePaths", "/a", NULL);
	edit(u, "{\"a\": \"x}", "additionalReadwritePaths", "/a", NULL);
	edit(u, "{} {}", "additionalReadwritePaths", "/a", NULL);
	edit(u, "{\"additionalReadwritePaths\": [], \"additionalReadwritePaths\": []}", "additionalReadwritePaths",
	     "/a", NULL);
	edit(u, "{\"a\" 1}", "additionalReadwritePaths", "/a", NULL);
	edit(u, "{}", "a..b", "/a", NULL);
	char err[256];
	char *r = jsonedit_add("{\n  \"a\": [1,\n  }", "b", "c", NULL, err, sizeof err);
	CHECK(u, r == NULL);
	CHECK_STR(u, err, "sandbox.json:3:3: expected a value");
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* "always": the file on disk edited in place, atomically. */
static void test_approve_file(struct unit *u)
{
	char dir[] = "/tmp/test_jsonedit.XXXXXX", path[128], err[256];
	CHECK(u, mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/sub/sandbox.json", dir);
	struct suggestion s = { .kind = SUGGEST_RW };
	snprintf(s.value, sizeof s.value, "/etc");
	/* missing file and directory: created */
	CHECK_INT(u, approve_always(dir, "sub/sandbox.json", &s, err, sizeof err), 1);
	CHECK_STR(u, slurp(path), "{\n  \"additionalReadwritePaths\": [\"/etc\"]\n}\n");
	CHECK_INT(u, approve_always(dir, "sub/sandbox.json", &s, err, sizeof err), 0);
	/* an existing file keeps its mode, its keys and its bytes */
	const char *mine = "{\"x-mine\": {\"a\": 1}}\n";
	CHECK_INT(u, safefile_replace(dir, "sub/sandbox.json", mine, strlen(mine), 0600, err, sizeof err), 0);
	CHECK_INT(u, chmod(path, 0640), 0);
	s.kind = SUGGEST_NET;
	snprintf(s.value, sizeof s.value, "api.example.com");
	CHECK_INT(u, approve_always(dir, "sub/sandbox.json", &s, err, sizeof err), 1);
	CHECK_STR(u, slurp(path), "{\"x-mine\": {\"a\": 1}, \"networkPolicy\": {\"allow\": [\"api.example.com\"]}}\n");
	struct stat st;
	CHECK(u, stat(path, &st) == 0 && (st.st_mode & 07777) == 0640);
	/* a broken file is left alone and named */
	CHECK_INT(u, safefile_replace(dir, "sub/sandbox.json", "{\"a\": [}", 8, 0600, err, sizeof err), 0);
	CHECK_INT(u, approve_always(dir, "sub/sandbox.json", &s, err, sizeof err), -1);
	CHECK(u, strstr(err, "/sub/sandbox.json:1:8: expected a value") != NULL);
	if (strstr(err, "1:8") == NULL)
		fprintf(stderr, "err: %s\n", err);
	CHECK_STR(u, slurp(path), "{\"a\": [}");
	s.kind = SUGGEST_NONE;
	CHECK_INT(u, approve_always(dir, "sub/sandbox.json", &s, err, sizeof err), -1);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK_INT(u, system(cmd), 0);
}

static char *at(char buf[256], const char *dir, const char *rel)
{
	snprintf(buf, 256, "%s/%s", dir, rel);
	return buf;
}

/* Nothing below the root is followed: a linked file or directory, a FIFO,
 * a root that is not absolute are refused and what they name is unchanged;
 * a hard link keeps the old bytes under its other name. */
static void test_approve_links(struct unit *u)
{
	char dir[] = "/tmp/test_jsonedit.XXXXXX", p[256], q[256], err[512];
	CHECK(u, mkdtemp(dir) != NULL);
	struct suggestion s = { .kind = SUGGEST_RW };
	snprintf(s.value, sizeof s.value, "/etc");
	const char *victim = "{\"mine\": true}\n";
	snprintf(p, sizeof p, "%s/victim.json", dir);
	CHECK_INT(u, safefile_replace(dir, "victim.json", victim, strlen(victim), 0600, err, sizeof err), 0);
	CHECK_INT(u, mkdir(at(q, dir, "ws"), 0700), 0);
	CHECK_INT(u, mkdir(at(q, dir, "ws/.sandmux"), 0700), 0);
	CHECK_INT(u, symlink(p, at(q, dir, "ws/.sandmux/sandbox.json")), 0);
	CHECK_INT(u, approve_always(at(q, dir, "ws"), ".sandmux/sandbox.json", &s, err, sizeof err), -1);
	CHECK(u, strstr(err, "/ws/.sandmux/sandbox.json: a symbolic link") != NULL);
	CHECK_STR(u, slurp(p), victim);
	/* a linked .sandmux directory */
	CHECK_INT(u, mkdir(at(q, dir, "ws2"), 0700), 0);
	CHECK_INT(u, symlink(dir, at(q, dir, "ws2/.sandmux")), 0);
	CHECK_INT(u, approve_always(at(q, dir, "ws2"), ".sandmux/victim.json", &s, err, sizeof err), -1);
	CHECK(u, strstr(err, "symbolic link") != NULL);
	CHECK_STR(u, slurp(p), victim);
	/* a FIFO where the file should be */
	CHECK_INT(u, mkfifo(at(q, dir, "fifo.json"), 0600), 0);
	CHECK_INT(u, approve_always(dir, "fifo.json", &s, err, sizeof err), -1);
	CHECK(u, strstr(err, "not a regular file") != NULL);
	/* a hard link: the answer replaces the name, the other link keeps its bytes */
	CHECK_INT(u, link(p, at(q, dir, "hard.json")), 0);
	CHECK_INT(u, approve_always(dir, "hard.json", &s, err, sizeof err), 1);
	CHECK_STR(u, slurp(p), victim);
	/* no HOME: nothing written at /.sandmux */
	CHECK_INT(u, approve_always(NULL, ".sandmux/sandbox.json", &s, err, sizeof err), -1);
	CHECK(u, strstr(err, "$HOME is not an absolute path") != NULL);
	CHECK_INT(u, approve_always("", ".sandmux/sandbox.json", &s, err, sizeof err), -1);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK_INT(u, system(cmd), 0);
}

int main(void)
{
	struct unit u = { 0 };
	test_existing_list(&u);
	test_already_there(&u);
	test_missing_key(&u);
	test_nested(&u);
	test_escaping(&u);
	test_errors(&u);
	test_approve_file(&u);
	test_approve_links(&u);
	return unit_done(&u, "test_jsonedit");
}
