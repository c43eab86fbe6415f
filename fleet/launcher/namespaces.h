/* The namespaces init sets up or joins (namespaces.c). */
#ifndef CODECELL_NAMESPACES_H
#define CODECELL_NAMESPACES_H

#include "config.h"

int ns_check_pid(struct config *c);
int ns_mount_private(struct config *c);
int ns_join_net(struct config *c);
int ns_ipc(struct config *c);
int ns_uts(struct config *c);
int ns_time(struct config *c);

#endif
