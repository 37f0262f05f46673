/* --sweep=OPTION=V1,V2,...: the values of a sweep (the runs are core/app/main.c's). Called from
 * cli_flags[] (core/app/cli.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/app/cli.h"
#include "core/app/cli_int.h"
#include "core/lib/nomem.h"
#include "core/job/options.h"
#include "core/job/parse.h"
#include "engines/secret.h"

/* Split a sweep's value list at its commas; an empty value (",", "4k,,8k", "4k,") is refused. */
static int sweep_values(struct sweep *sw)
{
	char *t = sw->text;
	for (unsigned n = 1;; n++) {
		char *comma = strchr(t, ',');
		if (comma)
			*comma = '\0';
		if (!*t) {
			fprintf(stderr, "iobench: --sweep=%s: value %u is empty (give OPTION=V1,V2,...)\n", sw->name, n);
			return -EINVAL;
		}
		if (sw->nvalues >= SWEEP_VALUES_MAX) {
			fprintf(stderr, "iobench: --sweep=%s: %d values at most\n", sw->name, SWEEP_VALUES_MAX);
			return -E2BIG;
		}
		sw->values[sw->nvalues++] = t;
		if (!comma)
			return 0;
		t = comma + 1;
	}
}

/* --sweep=OPTION=V1,V2,...: a job option and its values. */
static int add_sweep(struct run_cfg *cfg, const char *spec)
{
	const char *eq = spec ? strchr(spec, '=') : NULL;
	char shown[160];
	if (!eq || eq == spec || !eq[1]) {
		fprintf(stderr, "iobench: --sweep: '%s' is not OPTION=V1,V2,...\n",
			spec ? opt_name_shown(spec, shown, sizeof(shown)) : "");
		return -EINVAL;
	}
	if (cfg->nsweeps >= RUN_SWEEPS_MAX) {
		fprintf(stderr, "iobench: --sweep: %d sweeps at most\n", RUN_SWEEPS_MAX);
		return -E2BIG;
	}
	struct sweep *sw = &cfg->sweeps[cfg->nsweeps];
	snprintf(sw->name, sizeof(sw->name), "%.*s", (int)(eq - spec), spec);
	const struct option_def *def = option_find(sw->name);
	if (!def) {
		fprintf(stderr, "iobench: --sweep: unknown option '%s'\n", opt_name_shown(sw->name, shown, sizeof(shown)));
		return -EINVAL;
	}
	if (option_is_secret(sw->name)) { /* its values would name the points of the report */
		fprintf(stderr, "iobench: --sweep: %s is a secret (a credential, never printed): it cannot be swept\n",
			def->name);
		return -EINVAL;
	}
	snprintf(sw->name, sizeof(sw->name), "%s", def->name);
	sw->text = strdup(eq + 1);
	int ret = sw->text ? sweep_values(sw) : nomem(NULL, "values of --sweep", strlen(eq + 1) + 1);
	uint64_t runs = sw->nvalues;
	for (unsigned k = 0; k < cfg->nsweeps; k++)
		runs *= cfg->sweeps[k].nvalues; /* at most 64^8: no overflow */
	if (!ret && runs > SWEEP_RUNS_MAX) {
		fprintf(stderr, "iobench: --sweep=%s: the sweeps make %llu runs (%d at most)\n", sw->name,
			(unsigned long long)runs, SWEEP_RUNS_MAX);
		ret = -E2BIG;
	}
	if (ret) { /* not counted in nsweeps: freed here */
		free(sw->text);
		memset(sw, 0, sizeof(*sw));
		return ret;
	}
	cfg->sweep_names[cfg->nsweeps] = sw->name;
	cfg->nsweeps++;
	return 0;
}

int flag_sweep(const struct flag_call *c)
{
	int ret = add_sweep(c->cfg, c->val);
	return ret ? ret : FLAG_NEXT;
}
