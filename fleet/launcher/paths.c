/* The shapes of names and paths the command line may give (args.c); the root is built only
 * from names that passed these. */
#include <limits.h>
#include <string.h>

#include "paths.h"

/* A plain file name inside /box: not empty, not "." or "..", no '/', and
 * nothing that could break a status line (spaces, control characters) or the
 * ':'-separated command line. */
int valid_name(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p == '/' || *p == ':' || *p <= ' ' || *p == 0x7f)
			return 0; /* bytes >= 0x80 (UTF-8 names) are fine */
	return 1;
}

/* A relative path inside /box ("lib/util.h"): at most MAX_BOX_DEPTH
 * components, each a valid_name, separated by single slashes. */
int valid_box_path(const char *path)
{
	if (strlen(path) >= PATH_MAX)
		return 0;
	char component[NAME_MAX + 1];
	int depth = 0;
	for (const char *p = path;; p++) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 0 || n > NAME_MAX || ++depth > MAX_BOX_DEPTH)
			return 0;
		memcpy(component, p, n);
		component[n] = '\0';
		if (!valid_name(component))
			return 0;
		if (!e)
			return 1;
		p = e;
	}
}

/* An absolute sandbox path other than "/", without "." or ".." components. */
int valid_sandbox_path(const char *path)
{
	if (path[0] != '/' || strlen(path) >= PATH_MAX)
		return 0;
	int components = 0;
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.') || n > NAME_MAX)
			return 0;
		components++;
		p += n;
	}
	return components > 0;
}
