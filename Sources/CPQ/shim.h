#ifndef LATCH_CPQ_SHIM_H
#define LATCH_CPQ_SHIM_H
#include <libpq-fe.h>
#endif
