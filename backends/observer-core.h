/* observer-core: the deciding half of the observer (observer.c), run by
 * the observer's own process (observer-proc.c). Internal to backends/. */
#ifndef OBSERVER_CORE_H
#define OBSERVER_CORE_H

#include "backends/observer.h"

struct observer_core;
/* Answers notify_fd's calls from the policy; each denial goes to cb. */
struct observer_core *observer_core_new(const struct policy *, int notify_fd, observer_cb, void *arg);
/* Receives (waiting for it) and answers one notification; -1 when the
 * receive failed: its process died, or no process is left under the filter. */
int observer_core_step(struct observer_core *);
struct observer_stats *observer_core_stats(struct observer_core *);
/* The weaker sandbox: see observer_new()'s weak_port. */
void observer_core_weak(struct observer_core *, int proxy_port);
/* Landlock's audit records report what Landlock refuses: see
 * observer_new()'s OBSERVER_AUDITED. */
void observer_core_audited(struct observer_core *);
/* Leaves notify_fd open. */
void observer_core_free(struct observer_core *);

#endif
