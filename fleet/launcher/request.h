/* The arguments of a request frame, as the zygote reads them (request.c). */
#ifndef CODECELL_REQUEST_H
#define CODECELL_REQUEST_H

#include <stddef.h>

/* The value of the next argument NAME of a request frame (its fields after NONCE and STDIN_PATH)
 * after the value AFTER (NULL: the first), or NULL; only fields whose NUL is inside the request
 * count. */
const char *request_value(const char *request, size_t len, const char *name, const char *after);

#endif
