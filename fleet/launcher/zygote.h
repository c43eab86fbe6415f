/* --serve: the zygote (zygote.c), which forks the runs' launchers. */
#ifndef CODECELL_ZYGOTE_H
#define CODECELL_ZYGOTE_H

int zygote_main(const char *socket_path, char *args_start, char *args_end);

#endif
