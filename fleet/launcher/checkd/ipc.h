/* The check server: the IPC objects a check leaves behind, and no POSIX message queues (ipc.c). */
#ifndef CHECKD_IPC_H
#define CHECKD_IPC_H

int checkd_refuse_mqueues(void);
int checkd_clean_ipc(void);

#endif
