// SPDX-License-Identifier: GPL-2.0-only
/* BPF links destroyed at once (links.h) */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <bpf/libbpf.h>
#include "links.h"

/* a thread only calls into libbpf and the kernel: a small stack will do */
#define LINK_THREAD_STACK (64 * 1024)

static void *destroy_one(void *link)
{
	bpf_link__destroy(link);
	return NULL;
}

void links_destroy(struct bpf_link **links, int n)
{
	pthread_attr_t attr;
	pthread_t *tid;
	bool *started, have_attr;
	int i;

	tid = calloc(n > 0 ? n : 1, sizeof(*tid));
	started = calloc(n > 0 ? n : 1, sizeof(*started));
	have_attr = !pthread_attr_init(&attr);
	if (have_attr)
		pthread_attr_setstacksize(&attr, LINK_THREAD_STACK);
	for (i = 0; tid && started && i < n; i++)
		started[i] = links[i] &&
			     !pthread_create(&tid[i], have_attr ? &attr : NULL,
					     destroy_one, links[i]);
	for (i = 0; i < n; i++) {
		if (started && started[i])
			pthread_join(tid[i], NULL);
		else if (links[i])
			bpf_link__destroy(links[i]);
		links[i] = NULL;
	}
	if (have_attr)
		pthread_attr_destroy(&attr);
	free(started);
	free(tid);
}
