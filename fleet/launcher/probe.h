/* --probe-ia32 (probe.c). */
#ifndef CODECELL_PROBE_H
#define CODECELL_PROBE_H

int probe_ia32(void);

#endif
