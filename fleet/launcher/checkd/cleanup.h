/* The check server: what a check leaves behind, removed (cleanup.c). */
#ifndef CHECKD_CLEANUP_H
#define CHECKD_CLEANUP_H

int checkd_snapshot_box(void);
int checkd_kill_leftovers(void);
int checkd_clean_files(void);

#endif
