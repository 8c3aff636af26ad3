/* shadow: the agents' state shadows and per-workspace histories of
 * policy/agents.h, on the host and in the sandbox (shadow.c). Internal
 * to backends/. */
#ifndef SHADOW_H
#define SHADOW_H

#include <stdbool.h>
#include <stddef.h>

struct policy;
struct sbx;

/* In the parent, before the clone: the state dir, the shadows seeded,
 * the directories to mount on. 0, or -1 with one line in err. */
int shadow_prepare(const struct policy *, char *err, size_t len);
/* In the child (ns.c): every shadow over its real path, read-write,
 * before the read-only binds; then the state dir read-write after them. */
int shadow_mount(struct sbx *);
int shadow_state_rw(struct sbx *);
/* landlock.c: calls grant(s, path, arg) for the state dir and, with a
 * mount namespace, each shadowed path. */
int shadow_landlock(const struct sbx *, int (*grant)(struct sbx *, const char *, void *), void *arg);
/* environ.c: the history variables (out NULL: how many at most), and
 * whether an inherited entry is one of them. weak: no mount namespace,
 * so CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME name the shadows. */
size_t shadow_env(const struct policy *, char *const *envp, bool weak, char **out);
bool shadow_env_is(const struct policy *, bool weak, const char *entry);

#endif
