/* The file-size watch (fsize.c): seccomp user notification, served by init while the program lives. */
#ifndef CODECELL_FSIZE_H
#define CODECELL_FSIZE_H

#include "config.h"

int fsize_watch_install(const struct config *c);
unsigned fsize_watch_serve(int fd);

#endif
