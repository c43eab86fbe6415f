/* The arguments of a run's request frame (NONCE \0 STDIN_PATH \0 ARG \0 ...; zygote.c), read by the
 * zygote for what it keeps per CPU set (spares.c) and per node (kept.c). */
#include <string.h>

#include "request.h"

const char *request_value(const char *request, size_t len, const char *name, const char *after)
{
	const char *end = request + len;
	const char *field = after ? after + strlen(after) + 1 : request;
	for (int n = after ? 2 : 0; field < end; n++) {
		const char *nul = memchr(field, '\0', (size_t)(end - field));
		if (!nul)
			return NULL;
		const char *value = nul + 1;
		if (n >= 2 && !strcmp(field, name))
			return value < end && memchr(value, '\0', (size_t)(end - value)) ? value : NULL;
		field = value;
	}
	return NULL;
}
