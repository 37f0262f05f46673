/* The zone options (fio's zonemode and the options that go with it), as the job gives them.
 * core/plan/zone.h says what they do; core/job/options_zone.c holds their rows. */
#ifndef IOBENCH_ZONE_OPTS_H
#define IOBENCH_ZONE_OPTS_H
#include <stdbool.h>
#include <stdint.h>

enum zone_mode { ZONE_MODE_NONE, ZONE_MODE_STRIDED, ZONE_MODE_ZBD };

/* Sizes fio lets a job give in zones ("offset=2z"): converted to bytes by zone_resolve(). */
enum zone_count { ZCOUNT_OFFSET, ZCOUNT_OFFSET_INC, ZCOUNT_SIZE, ZCOUNT_IO_SIZE, ZCOUNT_NR };

struct zone_opts {
	unsigned mode;             /* enum zone_mode */
	uint64_t range;            /* zonerange: strided, the span of a zone (0: zonesize) */
	uint64_t size;             /* zonesize: strided, bytes per zone visit; zbd, the zone size */
	uint64_t capacity;         /* zonecapacity: zbd over emulated zones (0: the zone size) */
	uint64_t skip;             /* zoneskip: bytes skipped after a zone (sequential I/O) */
	bool read_beyond_wp;
	bool ignore_limits;        /* ignore_zone_limits: not the device's open-zone limit */
	unsigned max_open;         /* max_open_zones (0: the device's, or none) */
	unsigned job_max_open;     /* job_max_open_zones: per clone (0: none) */
	double reset_threshold;    /* zone_reset_threshold, 0..1 */
	double reset_frequency;    /* zone_reset_frequency, 0..1 (0: off) */
	bool threshold_given, frequency_given;
	uint64_t count[ZCOUNT_NR]; /* "Nz": N zones, given for offset, offset_increment, size, io_size */
	bool counted[ZCOUNT_NR];
};

#endif
