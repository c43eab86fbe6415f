/* The shapes of names and paths the command line may give (paths.c). */
#ifndef CODECELL_PATHS_H
#define CODECELL_PATHS_H

int valid_name(const char *name);
/* Deepest relative path a --copy-in may name inside /box. */
#define MAX_BOX_DEPTH 8
int valid_box_path(const char *path);
int valid_sandbox_path(const char *path);

#endif
