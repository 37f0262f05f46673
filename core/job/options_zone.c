/* The zone options (fio's "zonemode" family): strided zones, and zoned block devices or their
 * emulation over regular files and ordinary devices (core/plan/zone.h). Also the parser of sizes
 * given in zones ("offset=2z"), which the offset, offset_increment, size and io_size rows use. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job/options.h"
#include "core/job/options_rows.h"
#include "core/job/parse.h"

/* zone_reset_threshold / zone_reset_frequency: a float in [0, 1] (fio's lists of one). */
static int zone_parse_ratio(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	char *end;
	double x = strtod(v, &end);
	if (end == v || *end || !(x >= 0.0 && x <= 1.0)) {
		snprintf(e, n, "'%.*s%s' is not a number from 0 to 1", SHOWN(v));
		return -ERANGE;
	}
	*(double *)((char *)o + d->offset) = x;
	if (d->offset == OFF(zone.reset_threshold))
		o->zone.threshold_given = true;
	else
		o->zone.frequency_given = true;
	return 0;
}

/* Which of struct zone_opts' counts a row's "Nz" goes to. */
static int count_slot(const struct option_def *d)
{
	if (d->offset == OFF(offset))
		return ZCOUNT_OFFSET;
	if (d->offset == OFF(offset_increment))
		return ZCOUNT_OFFSET_INC;
	if (d->offset == OFF(size))
		return ZCOUNT_SIZE;
	return ZCOUNT_IO_SIZE;
}

/* "Nz": N zones (zone_resolve makes it bytes once zonesize is known), else the row's own
 * parser (N, N%) or a plain size (io_size). */
int zone_parse_size(struct job_opts *o, const struct option_def *d, const char *v, char *e, size_t n)
{
	size_t len = strlen(v);
	int slot = count_slot(d);
	if (len > 1 && (v[len - 1] == 'z' || v[len - 1] == 'Z')) {
		char buf[32];
		int64_t zones;
		snprintf(buf, sizeof(buf), "%.*s", (int)(len - 1), v);
		if (len - 1 >= sizeof(buf) || parse_int(buf, 0, INT64_MAX, &zones)) {
			snprintf(e, n, "cannot parse '%.*s%s' as a number of zones (Nz)", SHOWN(v));
			return -EINVAL;
		}
		o->zone.count[slot] = (uint64_t)zones;
		o->zone.counted[slot] = true;
		return 0;
	}
	o->zone.counted[slot] = false;
	if (slot != ZCOUNT_IO_SIZE)
		return opt_parse_size_pct(o, d, v, e, n);
	int ret = parse_file_size(v, o->kb_base, &o->io_size);
	if (ret)
		parse_size_error(e, n, v, ret);
	return ret;
}

static const struct choice zonemode_choices[] = {
	{ "none", ZONE_MODE_NONE, "No zones (zonerange, zoneskip ignored; zonesize refused)" },
	{ "strided", ZONE_MODE_STRIDED, "zonesize bytes in each zone of zonerange bytes, then zoneskip bytes further" },
	{ "zbd", ZONE_MODE_ZBD, "Zoned block device: writes at each zone's write pointer; zones emulated over "
				"regular files and ordinary devices" },
	{ NULL, 0, NULL },
};

const struct option_def options_zone[] = {
	CHOICE("zonemode", zone.mode, zonemode_choices, "none", C_ZONE, "How zonesize, zonerange and zoneskip are used",
	       .effects = OPT_EFFECT_CHANGES),
	SIZE("zonerange", zone.range, NULL, C_ZONE, "strided: the span of one zone (default: zonesize); zbd: ignored"),
	SIZE("zonesize", zone.size, NULL, C_ZONE,
	     "strided: bytes done in a zone before the next; zbd: the zone size (required unless the device is zoned)"),
	SIZE("zonecapacity", zone.capacity, NULL, C_ZONE,
	     "zbd over emulated zones: the writable part of each zone (default: zonesize; a zoned device reports its "
	     "own)"),
	SIZE("zoneskip", zone.skip, NULL, C_ZONE,
	     "Bytes skipped after each zone (sequential I/O; zbd: a multiple of zonesize)"),
	BOOL("read_beyond_wp", zone.read_beyond_wp, "0", C_ZONE,
	     "zbd: read past a zone's write pointer too (else only written data is read)"),
	UINT("max_open_zones", zone.max_open, "0", 0, 4096, C_ZONE,
	     "zbd: zones written at once, all jobs on a device (0: the device's limit, or none)"),
	UINT("job_max_open_zones", zone.job_max_open, "0", 0, 4096, C_ZONE,
	     "zbd: zones written at once by one clone (needs max_open_zones)"),
	BOOL("ignore_zone_limits", zone.ignore_limits, "0", C_ZONE,
	     "zbd: let max_open_zones exceed the device's own limit"),
	FUNC("zone_reset_threshold", zone.reset_threshold, zone_parse_ratio, NULL, "number from 0 to 1", C_ZONE,
	     "zbd: share of the region's blocks holding data above which zone_reset_frequency resets zones"),
	FUNC("zone_reset_frequency", zone.reset_frequency, zone_parse_ratio, NULL, "number from 0 to 1", C_ZONE,
	     "zbd: reset the zone written every 1/N writes (over the threshold), as garbage collection would"),
	{ NULL },
};
