/* The check server: files and directory trees removed, never following a symlink (tree.c). */
#ifndef CHECKD_TREE_H
#define CHECKD_TREE_H

/* A file, or a directory and all it holds (made writable first). */
int checkd_remove_tree(int at, const char *name);
/* Every entry of the directory FD (consumed) but those KEEP keeps (NULL: none). */
int checkd_remove_entries(int fd, int (*keep)(const char *name));
/* Everything in a directory, removed (none there: nothing to do). */
int checkd_empty_dir(const char *path);

#endif
