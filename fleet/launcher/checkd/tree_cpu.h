/* The check server: the CPU time of every process of the check, children included (tree_cpu.c). */
#ifndef CHECKD_TREE_CPU_H
#define CHECKD_TREE_CPU_H

#include <stdint.h>

uint64_t checkd_tree_cpu_usec(void);

#endif
