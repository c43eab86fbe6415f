/* The live stdin relay (relay.c, the launcher): see the file's header. */
#ifndef CODECELL_RELAY_H
#define CODECELL_RELAY_H

struct pollfd;
int relay_prepare(void);
void relay_pollfd(struct pollfd *p);
void relay_event(const struct pollfd *p);
void relay_forget(void); /* init: its copies of the relay's fds, closed */
void relay_end(void);

#endif
