/* The check server: the checker's prepared files, kept and copied in again after each check (prepared.c). */
#ifndef CHECKD_PREPARED_H
#define CHECKD_PREPARED_H

#include <stddef.h>

int checkd_snapshot_prepared(const char *const *names, size_t n);
int checkd_restore_prepared(void);

#endif
