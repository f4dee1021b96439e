#ifndef LATCH_CARGON2_SHIM_H
#define LATCH_CARGON2_SHIM_H
#include <argon2.h>
#endif
