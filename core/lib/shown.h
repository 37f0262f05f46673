/* How a message quotes what the user gave. */
#ifndef IOBENCH_SHOWN_H
#define IOBENCH_SHOWN_H
#include <string.h>

/* printf arguments for "%.*s%s": a value quoted in a message, cut after 200 bytes (with
 * "..."), so that the message stays short and its reason is not cut off instead. */
#define SHOWN(v) 200, (v), strlen(v) > 200 ? "..." : ""

#endif
